// `sluice flesh --reduce TEST`: shrinks a failing fleshed test (its NAME.cfg,
// test_file.h) to a minimal CFG that still fails the same way — the same
// variant still mismatches, errs, hangs or crashes — and prints it as
// SPIR-V assembly and as `sluice cfg --dot`'s picture. Every candidate
// runs in a child process (process_pool.h), so a driver crash is a verdict,
// not the end of the reduction; candidates whose failure is a mismatch run
// many to a child (one Vulkan submission), those of a crash or a hang one
// to a child. The steps are src/flesh/reduce.h's.
#pragma once

#include <string>

#include "flesh_run.h"

namespace sluice::tools {

// `test` is NAME.cfg, NAME (with NAME.cfg beside), a file NAME.EXT of the
// test, or a directory holding one .cfg. `config` gives the device, the
// variants tried, the pipeline and the time limit. With `out_dir`, the
// reduced test's files are written there as NAME-reduced.*. Returns the
// exit code.
int reduce_flesh_test(const std::string& test, const FleshRunConfig& config, const std::string& out_dir);

}  // namespace sluice::tools
