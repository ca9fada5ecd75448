// libFuzzer target: GLSL text → glslang → IR → -O1 (validated after every pass) → SPIR-V
// (spirv-val) and GLSL (glslang); fuzz/glsl.dict holds GLSL's tokens.
// The pipeline is fuzz_pipeline.cpp's run_glsl.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sluice::fuzz::abort_on_finding(sluice::fuzz::run_glsl(std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
