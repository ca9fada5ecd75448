// glslang in process for the GLSL output tests: compiles text the emitter
// produced the way glslangValidator would for the chosen flavour (-V for
// Vulkan, -G for OpenGL; GLSL ES for OpenGL is only parsed and linked, as
// glslang makes no OpenGL SPIR-V from ES) and runs spirv-val on the result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/module.h"
#include "output/glsl/glsl_output.h"

namespace sluice::testing {

struct GlslCheck {
  bool ok = false;
  std::string log;                 // glslang's or spirv-val's complaint
  std::vector<std::uint32_t> spirv;
};

// `spirv_version` as glsl_in::Options has it: 1.3 (Vulkan 1.1) for the
// subgroup built-ins; Vulkan flavour only.
GlslCheck compile_glsl_text(const std::string& text, ir::ShaderStage stage, const glsl_out::Options& options,
                            std::uint32_t spirv_version = 0x00010000);

}  // namespace sluice::testing
