// `sluice flesh --run`: fleshed tests executed several ways, in batches, in
// child processes (process_pool.h), compared with the reference path.
//
// Variants per test: (1) "fleshed", the generated SPIR-V; (2)
// "sluice-spirv", that SPIR-V through Sluice's SPIR-V front end, the -O
// pipeline and the SPIR-V output; (3) "sluice-glsl", the same IR through
// the GLSL output and glslang; (4) "spirv-cross", SPIRV-Cross's GLSL of
// (1) through glslang (a peer, with --peer spirv-cross). All variants of
// a batch of tests run in one Vulkan submission (src/flesh/batch_run.h).
// A batch that times out (a hang) is run again test by test and variant by
// variant on the CPU device, so that the hang is pinned on one variant of
// one test; on a GPU the run stops (as xcheck does: a hung GPU can fail
// every later submission).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/vulkan_context.h"
#include "flesh/flesh.h"
#include "flesh/generate.h"
#include "sluice_pipeline.h"

namespace sluice::tools {

inline constexpr const char* kFleshVariants[] = {"fleshed", "sluice-spirv", "sluice-glsl", "spirv-cross"};
inline constexpr std::size_t kFleshVariantCount = 4;

struct FleshRunConfig {
  std::uint64_t seed = 1;
  std::vector<flesh::Mode> modes;
  std::uint64_t count = 100;        // tests per mode
  flesh::CampaignOptions campaign;  // mode filled per unit
  exec::DeviceChoice device;
  PipelineOptions pipeline;         // Sluice's translation (variants 2 and 3)
  // Which of kFleshVariants run (spirv-cross only with --peer).
  std::array<bool, kFleshVariantCount> variants{true, true, true, false};
  unsigned batch = 64;              // tests per submission
  unsigned bundle = 1;              // tests per module (flesh/bundle.h); 1: each test its own module
  unsigned jobs = 1;
  unsigned timeout_seconds = 10;    // per submission: a hang is a finding
  std::string findings_dir;         // where failing tests are written ("" = nowhere)
  bool strict = false;
};

struct VariantTally {
  std::uint64_t pass = 0, fail = 0, error = 0, hang = 0;
};

struct FleshRunSummary {
  std::string device;
  std::uint64_t tests = 0;
  std::array<VariantTally, kFleshVariantCount> tally{};
  std::uint64_t sluice_failures = 0;  // (2)/(3) wrong where (1) was right
  std::uint64_t driver_findings = 0;  // (1) wrong, or hung
  std::uint64_t peer_findings = 0;
  flesh::Coverage coverage;
  std::vector<std::string> findings;  // one line each
  std::string stopped;
  double seconds = 0;
};

FleshRunSummary run_flesh_campaign(const FleshRunConfig& config);

// The variants' SPIR-V for one test: index i of kFleshVariants, or an
// error message (the step that failed).
std::array<StepResult<std::vector<std::uint32_t>>, kFleshVariantCount> flesh_variants(const flesh::Test& test,
                                                                                     const FleshRunConfig& config);
// The same for any fleshed module (a test's or a bundle's).
std::array<StepResult<std::vector<std::uint32_t>>, kFleshVariantCount> flesh_module_variants(
    const std::vector<std::uint32_t>& spirv, const FleshRunConfig& config);

}  // namespace sluice::tools
