// The stages `sluice xcheck` draws around a vertex, geometry or
// tessellation shader so that what it computes reaches the framebuffer:
//
//   checked vertex:       [checked VS]  ->                          capture FS
//   checked geometry:     feed VS       -> [checked GS]          -> capture FS
//   checked tess. eval.:  feed VS -> pass-through TCS -> [checked TES] -> capture FS
//   checked tess. control: feed VS -> [checked TCS] -> forwarding TES  -> capture FS
//
// The feed vertex shader passes the runner's position attribute (location
// 0) to gl_Position and gives every per-vertex input of the next stage a
// value that differs per vertex and location (floats and doubles 0.25 *
// vertex + 0.125 * location + 0.0625, integers vertex + location + 1,
// splatted over the type; partner_values.h). Inputs that are blocks are
// fed member by member, matrices and doubles whole. The pass-through control shader makes patches of 3 vertices with
// every tessellation level 4 and gives the evaluation shader's patch inputs
// constants. The forwarding evaluation shader (triangles) interpolates the
// control shader's per-vertex outputs with gl_TessCoord (integers: sums)
// and passes its patch outputs on. The capture fragment shader writes each
// 32-bit scalar or vector output of the stage before it, or of a block
// member, to the colour attachment at its location (locations 0-6;
// integers flat) and gl_FragCoord to the next free one, so coverage — the
// positions — is compared too. Outputs it cannot capture (matrices,
// doubles, arrays, nested structs, locations past 6) are listed in
// PartnerShaders::uncaptured.
#pragma once

#include <string>
#include <vector>

#include "exec/shader_interface.h"
#include "exec/spirv_module.h"
#include "ir/result.h"

namespace sluice::exec {

struct PartnerShaders {
  // GLSL 4.50 text of each stage in pipeline order; the checked shader's
  // slot holds an empty text.
  std::vector<std::pair<ShaderStage, std::string>> stages;
  std::size_t checked = 0;
  std::vector<std::string> uncaptured;  // names of outputs not written to the framebuffer
};

Result<PartnerShaders> partner_shaders(const SpirvModule& checked, ShaderStage stage);

}  // namespace sluice::exec
