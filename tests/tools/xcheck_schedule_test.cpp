// xcheck's scheduling (tools/xcheck_schedule.h) with injected failures: a
// file whose check reports a device failure, or whose child outlives its
// time limit, stops a GPU run and the rest are reported as not run, naming
// it; on the CPU device the run goes on. No GPU is needed: the checks are
// fakes that run in the pool's child processes like the real ones.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "xcheck_report.h"
#include "xcheck_schedule.h"

using namespace sluice::tools;

namespace {

// "lost*" files report a lost device, "hang*" files sleep past any test's
// time limit, "slow*" files take a moment (and "slow-lost*" then report a
// lost device); every other file passes.
FileOutcome fake_check(const std::string& file) {
  if (file.starts_with("hang")) std::this_thread::sleep_for(std::chrono::seconds(30));
  if (file.starts_with("slow")) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  if (file.starts_with("lost") || file.starts_with("slow-lost"))
    return {file, {{"glslang-spirv", CheckStatus::Error, "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST"}},
            "vkQueueSubmit/vkWaitForFences failed: VK_ERROR_DEVICE_LOST"};
  return {file, {{"glslang-spirv", CheckStatus::Pass, ""}}, {}};
}

ScheduleOptions gpu(unsigned jobs = 1) {
  ScheduleOptions o;
  o.jobs = jobs;
  o.limit = std::chrono::seconds(1);
  o.stop_on_device_failure = true;
  return o;
}

}  // namespace

TEST_CASE("a lost device on a GPU stops the run and names the file") {
  const std::vector<std::string> files = {"a.frag", "lost.frag", "c.frag", "d.frag"};
  const ScheduleResult r = run_checks(files, gpu(), fake_check);
  REQUIRE(r.outcomes.size() == 4);
  CHECK(r.outcomes[0].status() == CheckStatus::Pass);
  CHECK(r.outcomes[1].status() == CheckStatus::Error);
  CHECK_THAT(r.outcomes[1].device_failure, Catch::Contains("VK_ERROR_DEVICE_LOST"));
  for (std::size_t i : {2u, 3u}) {
    CHECK(r.outcomes[i].file == files[i]);
    CHECK(r.outcomes[i].status() == CheckStatus::Error);
    REQUIRE(r.outcomes[i].variants.size() == 1);
    CHECK(r.outcomes[i].variants[0].detail == "not run: the device hung on lost.frag");
  }
  CHECK_THAT(r.stopped, Catch::StartsWith("the device hung on lost.frag (vkQueueSubmit"));
  CHECK_THAT(r.stopped, Catch::EndsWith("2 files not run"));
  CHECK_THAT(summary_table(r.outcomes, r.stopped), Catch::Contains("xcheck stopped early: the device hung on lost.frag"));
  CHECK_THAT(json_report(r.outcomes, r.stopped), Catch::Contains("\"stopped\": \"the device hung on lost.frag"));
}

TEST_CASE("on the CPU device a device failure is that file's error only") {
  ScheduleOptions cpu = gpu();
  cpu.stop_on_device_failure = false;
  const ScheduleResult r = run_checks({"a.frag", "lost.frag", "c.frag"}, cpu, fake_check);
  REQUIRE(r.outcomes.size() == 3);
  CHECK(r.outcomes[1].status() == CheckStatus::Error);
  CHECK(r.outcomes[2].status() == CheckStatus::Pass);
  CHECK(r.stopped.empty());
  CHECK_THAT(json_report(r.outcomes, r.stopped), !Catch::Contains("stopped"));
}

TEST_CASE("a file killed at its time limit on a GPU counts as a hang") {
  const ScheduleResult r = run_checks({"a.frag", "hang.frag", "c.frag"}, gpu(), fake_check);
  REQUIRE(r.outcomes.size() == 3);
  CHECK(r.outcomes[0].status() == CheckStatus::Pass);
  REQUIRE(r.outcomes[1].variants.size() == 1);
  CHECK(r.outcomes[1].variants[0].detail == "timed out after 1 s");
  CHECK(r.outcomes[2].variants[0].detail == "not run: the device hung on hang.frag");
  CHECK(r.stopped == "the device hung on hang.frag (timed out after 1 s); 1 file not run");
}

TEST_CASE("files already running when the device hangs finish with their own results") {
  // Two at a time: lost.frag and slow.frag start together; slow.frag ends
  // after lost.frag stopped the run.
  const ScheduleResult r = run_checks({"lost.frag", "slow.frag", "c.frag"}, gpu(2), fake_check);
  REQUIRE(r.outcomes.size() == 3);
  CHECK(r.outcomes[1].status() == CheckStatus::Pass);
  CHECK(r.outcomes[2].variants[0].detail == "not run: the device hung on lost.frag");
  CHECK_THAT(r.stopped, Catch::EndsWith("1 file not run"));
}

TEST_CASE("a running file that fails on the device after the hang is marked as such") {
  const ScheduleResult r = run_checks({"lost.frag", "slow-lost.frag", "c.frag"}, gpu(2), fake_check);
  REQUIRE(r.outcomes.size() == 3);
  REQUIRE(r.outcomes[1].variants.size() == 1);
  CHECK_THAT(r.outcomes[1].variants[0].detail,
             Catch::StartsWith("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST") &&
                 Catch::EndsWith("(it ran while the device hung on lost.frag)"));
  CHECK_THAT(r.stopped, Catch::StartsWith("the device hung on lost.frag"));
}

TEST_CASE("a run without failures reports every file") {
  const ScheduleResult r = run_checks({"a.frag", "b.frag", "c.frag"}, gpu(2), fake_check);
  REQUIRE(r.outcomes.size() == 3);
  for (const auto& o : r.outcomes) CHECK(o.status() == CheckStatus::Pass);
  CHECK(r.stopped.empty());
}

TEST_CASE("a peer variant comes back from the child marked as a peer and never fails its file") {
  // "peer*" files: the Sluice variants pass, a peer translation fails.
  auto check = [](const std::string& file) -> FileOutcome {
    FileOutcome o{file, {{"amber-spirv", CheckStatus::Pass, ""}, {"spirv-in-spirv", CheckStatus::Pass, ""}}, {}};
    if (file.starts_with("peer")) o.variants.push_back({"spirv-cross", CheckStatus::Fail, "EXPECT failed", true});
    return o;
  };
  const ScheduleResult r = run_checks({"peer.amber", "plain.amber"}, gpu(2), check);
  REQUIRE(r.outcomes.size() == 2);
  REQUIRE(r.outcomes[0].variants.size() == 3);
  CHECK(r.outcomes[0].variants[2].peer);
  CHECK_FALSE(r.outcomes[0].variants[1].peer);
  CHECK(r.outcomes[0].status() == CheckStatus::Pass);
  // A Sluice variant failing still fails the file.
  FileOutcome failing = r.outcomes[0];
  failing.variants[1].status = CheckStatus::Fail;
  CHECK(failing.status() == CheckStatus::Fail);
  const std::string table = summary_table(r.outcomes);
  CHECK_THAT(table, Catch::Contains("peer fail peer.amber [spirv-cross]: EXPECT failed"));
  CHECK_THAT(table, Catch::Contains("peers (not counted):\nspirv-cross               0      1      0      0"));
  CHECK_THAT(table, Catch::Contains("2 passed, 0 failed"));
  CHECK_THAT(json_report(r.outcomes),
             Catch::Contains("\"spirv-cross\": {\"status\": \"fail\", \"detail\": \"EXPECT failed\", \"peer\": true}"));
}
