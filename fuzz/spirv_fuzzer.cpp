// libFuzzer target: a SPIR-V binary → the SPIR-V reader → IR → -O1 (validated after every
// pass) → SPIR-V (spirv-val) and GLSL (glslang). The pipeline is fuzz_pipeline.cpp's
// run_spirv. Only binaries are fuzzed: input without the magic number would go to
// SPIRV-Tools' assembler, which is not Sluice's code (scripts/fuzz assembles the .spvasm
// seeds); libFuzzer keeps no input for which this returns -1.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "fuzz_pipeline.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::uint32_t kMagic = 0x07230203, kSwapped = 0x03022307;
  std::uint32_t first = 0;
  if (size < 4) return -1;
  std::memcpy(&first, data, 4);
  if (first != kMagic && first != kSwapped) return -1;
  sluice::fuzz::abort_on_finding(sluice::fuzz::run_spirv(std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
