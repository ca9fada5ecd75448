// libFuzzer target: λV text → IR → -O1 (validated after every pass) → SPIR-V (spirv-val) and GLSL
// (glslang). lambdav_mutator.cpp is its structure-aware mutator; fuzz/lambdav.dict its tokens.
// The pipeline is fuzz_pipeline.cpp's run_lambdav.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sluice::fuzz::abort_on_finding(sluice::fuzz::run_lambdav(std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
