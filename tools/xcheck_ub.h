// `sluice xcheck --ub-check` (docs/ub-check.md): one more variant per file,
// "ub-check", which runs Sluice's SPIR-V instrumented by the ub-check pass
// with the same inputs as the reference. It fails when a check fired (its
// detail then carries the findings, encode_ub_findings, until the parent
// collects them), and when nothing fired but the instrumented program
// computed something else than the plain one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/runner.h"
#include "exec/xcheck.h"
#include "sluice_pipeline.h"
#include "ub_findings.h"
#include "xcheck_report.h"

namespace sluice::tools {

inline constexpr const char* kUbVariant = "ub-check";

// A fragment or compute shader run bare: `reference` (the plain program's
// SPIR-V) runs again with `settings` to compare with.
VariantOutcome ub_check_shader(exec::Runner& runner, const std::string& source, const std::string& path,
                               const std::vector<std::uint32_t>& reference, const exec::ShaderRunSettings& settings,
                               const PipelineOptions& options);

// An Amber script whose fragment shader is the .frag beside it: the script
// runs with that shader instrumented; nothing fired, its EXPECTs must pass
// as they did for the script's own SPIR-V (`reference_passed`).
VariantOutcome ub_check_amber(exec::Runner& runner, const std::string& amber_path, bool reference_passed,
                              const PipelineOptions& options);

// In the parent: takes the findings out of every ub-check variant's detail,
// leaving there a one-line summary, and returns them all.
UbFindings collect_ub_findings(std::vector<FileOutcome>& outcomes);

}  // namespace sluice::tools
