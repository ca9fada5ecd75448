// The Vulkan jobs of one `sluice flesh --run` batch: every test's variants,
// with `--bundle K` tests sharing one module per variant (src/flesh/bundle.h)
// so that lavapipe compiles one pipeline per K tests. A bundle whose
// variant cannot be made (Sluice or the peer rejects the bundled module)
// falls back to the tests' own modules for that variant, so each test
// keeps its own verdict and message; a group of one test always uses the
// test's own module (the one --out and --findings write). A bundle holds at
// most kBundleBlocks blocks (a larger test runs alone).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "flesh/batch_run.h"
#include "flesh/bundle.h"
#include "flesh_run.h"

namespace sluice::tools {

// The most CFG blocks one bundle holds. On lavapipe (Mesa 22.3.6, LLVM 15)
// a bundle of eight 4-8-block tests halves the CPU time per test, four of
// about ten blocks save 14%, and sixteen of about ten, or eight of about
// 22, cost more than separate modules (docs/performance.md).
inline constexpr std::uint32_t kBundleBlocks = 48;

using FleshVariantModules = std::array<StepResult<std::vector<std::uint32_t>>, kFleshVariantCount>;

struct FleshJobPlan {
  // Where a test's variant runs: job `job`, its output words from
  // `out_offset`; or why it cannot run (`error`); `run` false when the
  // variant is not asked for.
  struct Place {
    bool run = false;
    std::size_t job = std::numeric_limits<std::size_t>::max();
    std::uint32_t out_offset = 0;
    std::string error;
  };
  std::vector<flesh::BatchJob> jobs;
  std::vector<std::array<Place, kFleshVariantCount>> places;  // per test
  std::size_t pairs = 0;                                      // (test, variant) pairs placed in jobs

  // What the jobs' spans point into.
  std::vector<flesh::Bundle> bundles;
  std::vector<FleshVariantModules> bundle_variants;
  std::vector<std::optional<FleshVariantModules>> own;  // per test, made on demand
};

// `only_variant` >= 0 restricts the plan to that variant (a hang being
// pinned). The tests must outlive the plan's jobs.
FleshJobPlan plan_flesh_jobs(const std::vector<flesh::Test>& tests, const FleshRunConfig& config, int only_variant);

}  // namespace sluice::tools
