// The runner's built-in vertex shader, generated per fragment shader: it
// passes a 2D position attribute (location 0) through to gl_Position and
// writes every user-defined input of the fragment shader, so that the
// interface matches and the inputs hold deterministic values:
//
// Scalar number n of the fragment inputs receives, with (u, v) = position
// * 0.5 + 0.5 (so (u, v) is gl_FragCoord.xy / size at each pixel for the
// full-screen triangle), where an input (or block member) at Location L,
// Component c is n = 4L + c, the further components of a vector count on
// from there, and each matrix column, array element and block or struct
// member starts at the location it occupies — so the values do not depend on
// which other inputs the shader declares, nor on whether a block's members
// are declared as a block or one by one:
//   32-bit float, interpolated:  (n even ? u : v) + floor(n / 2) * 0.25
//   float declared Flat or 64-bit: 0.25 * (n + 1)
//   integers: n + 1
#pragma once

#include <cstdint>
#include <vector>

#include "exec/shader_interface.h"
#include "exec/spirv_module.h"

namespace sluice::exec {

// SPIR-V assembly text of the vertex shader for this fragment interface.
Result<std::string> vertex_shader_assembly(const SpirvModule& fragment, const ShaderInterface& fragment_iface);

// Assembles SPIR-V text with SPIRV-Tools for Vulkan 1.0 (SPIR-V 1.0), or for
// the given SPIR-V version word.
Result<std::vector<uint32_t>> assemble_spirv(const std::string& text, uint32_t spirv_version = 0x00010000);

}  // namespace sluice::exec
