// `sluice flesh --run` survives a batch whose child process crashes or
// loses the device (tools/flesh_bisect.h): the batch is saved under
// --findings, bisected in fresh children down to the smallest failing set,
// and the run goes on. The failures are injected with the hidden option
// --inject-failure, so this runs on lavapipe in seconds.
#include <catch2/catch.hpp>

#include <filesystem>

#include "driver_run.h"

namespace fs = std::filesystem;
using sluice::testing::quote;
using sluice::testing::run_sluice;
using sluice::testing::Scratch;

namespace {

const char* const kCampaign = "flesh --seed 1 --count 8 --batch 4 --blocks 6 --run --variants fleshed -j 2 ";

}  // namespace

TEST_CASE("a batch whose process aborts is saved, bisected to the one test, and the run goes on") {
  Scratch s;
  const fs::path findings = s.dir / "findings";
  const auto r = run_sluice(s, std::string(kCampaign) + "--mode phi --inject-failure abort:phi:5 --findings " +
                                   quote(findings.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 0);  // a driver finding changes the exit code only with --strict
  // The other seven tests, in both batches, have their verdicts.
  CHECK_THAT(r.out, Catch::Contains("fleshed       7 pass, 0 mismatch, 0 error, 0 hang, 1 crash"));
  CHECK_THAT(r.out, Catch::Contains("DRIVER phi test 5 (seed 1): fleshed crash: the batch's process died (signal 6, SIGABRT)"));
  // Tests 4-7 → 6-7 passes, 4-5 fails → 4 passes, 5 fails; then its one variant: 5 runs.
  CHECK_THAT(r.out, Catch::Contains("FAILED BATCH phi tests 4-7: the batch's process died (signal 6, SIGABRT); saved in"));
  CHECK_THAT(r.out, Catch::Contains("bisected in 5 runs: phi test 5 (fleshed) (the batch's process died"));
  CHECK_THAT(r.out, Catch::Contains("replay phi test 5 (fleshed): sluice flesh --seed 1 --mode phi --first 5 --count 1"));
  // The whole batch, and the culprit as an ordinary finding.
  for (int i = 4; i < 8; ++i) CHECK(fs::exists(findings / "batch-phi-4" / ("phi-" + std::to_string(i) + ".spv")));
  CHECK(fs::exists(findings / "batch-phi-4" / "why.txt"));
  CHECK_THAT(sluice::testing::read_file((findings / "failed-batches.txt").string()),
             Catch::Contains("bisected in 5 runs: phi test 5 (fleshed)"));
  CHECK(fs::exists(findings / "phi-5.amber"));
  CHECK_FALSE(fs::exists(findings / "phi-4.amber"));
  CHECK_FALSE(fs::exists(findings / "batch-phi-0"));
  CHECK(run_sluice(s, std::string(kCampaign) + "--mode phi --inject-failure abort:phi:5 --strict").code == 1);
}

TEST_CASE("a crash that needs two tests of a batch is narrowed to the range holding both") {
  Scratch s;
  const auto r = run_sluice(s, "flesh --seed 1 --count 8 --batch 8 --blocks 6 --run --variants fleshed --mode basic "
                               "--inject-failure segv:basic:2+6");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("fleshed       3 pass, 0 mismatch, 0 error, 0 hang, 5 crash"));
  CHECK_THAT(r.out, Catch::Contains("basic tests 2-6 together (the batch's process died (signal 11, SIGSEGV))"));
  CHECK_THAT(r.out, Catch::Contains("(only together with basic tests 2-6)"));
}

TEST_CASE("a lost device on Sluice's SPIR-V alone is pinned on that variant and is a Sluice failure") {
  Scratch s;
  const auto r = run_sluice(s, "flesh --seed 1 --count 4 --batch 4 --blocks 6 --run --variants fleshed,sluice-spirv "
                               "--mode basic --inject-failure lost:basic:1:sluice-spirv");
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("fleshed       4 pass"));
  CHECK_THAT(r.out, Catch::Contains("SLUICE basic test 1 (seed 1): sluice-spirv crash: VK_ERROR_DEVICE_LOST (injected"));
  CHECK_THAT(r.out, Catch::Contains(": basic test 1 (sluice-spirv) (VK_ERROR_DEVICE_LOST"));
}

TEST_CASE("flesh: --inject-failure refuses malformed text") {
  Scratch s;
  const auto r = run_sluice(s, "flesh --count 1 --run --inject-failure boom:phi:1");
  CHECK(r.code == 1);
  CHECK(r.err == "sluice flesh: error: --inject-failure 'boom:phi:1': expected KIND:MODE:TEST[+TEST][:VARIANT] or "
                 "KIND:loop with KIND abort, segv or lost\n");
}
