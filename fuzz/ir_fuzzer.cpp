// libFuzzer target: IR text (ir-dump's form) → parse → validate → every pass alone (validated
// after each) → -O1 → SPIR-V (spirv-val) and GLSL (glslang).
// The pipeline is fuzz_pipeline.cpp's run_ir.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sluice::fuzz::abort_on_finding(sluice::fuzz::run_ir(std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
