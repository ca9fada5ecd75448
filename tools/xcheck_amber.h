// `sluice xcheck` of an Amber script. The script's own SPIR-V is the
// reference (and its EXPECTs must pass); each variant replaces the script's
// shaders and runs the same script again, on the same device, in the same
// process (exec/xcheck.h):
//   sluice-spirv, sluice-glsl: the fragment shader compiled from the .frag
//     beside the script (GLSL front end), as Sluice's SPIR-V and as Sluice's
//     GLSL compiled by glslang;
//   spirv-in-spirv, spirv-in-glsl (AmberCheckOptions::spirv_input): each of
//     the script's own SPIR-V shaders read by Sluice's SPIR-V front end, then
//     the pass pipeline, then Sluice's SPIR-V, or Sluice's GLSL compiled by
//     glslang;
//   spirv-cross (a peer, never failing the file; AmberCheckOptions::peer):
//     the script's SPIR-V turned into GLSL by SPIRV-Cross, compiled by glslang.
#pragma once

#include <string>

#include "exec/runner.h"
#include "sluice_pipeline.h"
#include "xcheck_report.h"

namespace sluice::tools {

struct AmberCheckOptions {
  bool spirv_input = false;
  bool peer_spirv_cross = false;
  bool ub_check = false;  // --ub-check: the ub-check variant too (xcheck_ub.h)
};

FileOutcome check_amber(exec::Runner& runner, const std::string& path, const PipelineOptions& options,
                        const AmberCheckOptions& checks);

}  // namespace sluice::tools
