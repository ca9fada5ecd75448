// `sluice flesh --run`: fleshed tests executed several ways, in batches, in
// child processes (process_pool.h), compared with the reference path.
//
// Variants per test: (1) "fleshed", the generated SPIR-V; (2)
// "sluice-spirv", that SPIR-V through Sluice's SPIR-V front end, the -O
// pipeline and the SPIR-V output; (3) "sluice-glsl", the same IR through
// the GLSL output and glslang; (4) "spirv-cross", SPIRV-Cross's GLSL of
// (1) through glslang (a peer, with --peer spirv-cross). All variants of
// a batch of tests run in one Vulkan submission (src/flesh/batch_run.h).
// A batch whose child crashes, loses the device or times out is saved under
// --findings and bisected in fresh children down to the smallest failing
// set (flesh_bisect.h); the run then goes on with the next batch. Only a
// child that cannot create the device at all stops the run.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/vulkan_context.h"
#include "flesh/flesh.h"
#include "flesh/generate.h"
#include "flesh_bisect.h"
#include "sluice_pipeline.h"

namespace sluice::tools {

inline constexpr const char* kFleshVariants[] = {"fleshed", "sluice-spirv", "sluice-glsl", "spirv-cross"};
inline constexpr std::size_t kFleshVariantCount = 4;

struct FleshRunConfig {
  std::uint64_t seed = 1;
  std::vector<flesh::Mode> modes;
  std::uint64_t first = 0;          // tests [first, first + count) of each mode
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
  InjectedFailure inject;           // testing only (--inject-failure)
};

struct VariantTally {
  std::uint64_t pass = 0, fail = 0, error = 0, hang = 0, crash = 0;
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
  // Per failed batch: what failed, the smallest failing sets its bisection
  // found, and how many children that took.
  std::vector<std::string> bisections;
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

// The children's result lines are tab-separated fields: field_text makes
// a message one field (tabs and line breaks become blanks), split_fields
// splits a line.
std::string field_text(std::string s);
std::vector<std::string> split_fields(const std::string& line);

// "invocation 0: expected path 1 2 5 3, got 1 2 4 3" (block numbers), or
// the first differing value in data mode.
std::string describe_mismatch(const flesh::Test& test, const std::vector<std::uint32_t>& got);

}  // namespace sluice::tools
