// The lavapipe finding of the data-mode campaign (docs/workarounds.md,
// loop-top-exit-test; docs/testing.md, "lavapipe data mode"): the 14 data
// tests of seed 2026 whose fleshed module passed and whose Sluice variants
// did not now pass in every variant with the default --workarounds auto,
// which selects loop-top-exit-test on lavapipe; on the Mesa where the bug
// was found (22.3) Sluice's SPIR-V of each fails without it. And the
// reduced shader: its own SPIR-V gets the wrong value on that Mesa, and
// Sluice's translations of it get the right one with the workaround.
#include <catch2/catch.hpp>

#include <filesystem>

#include "driver_run.h"

using sluice::testing::run_sluice;
using sluice::testing::Scratch;

TEST_CASE("flesh data tests that lavapipe miscompiled after -O1 pass with loop-top-exit-test") {
  Scratch s;
  int failed_without = 0;
  bool mesa_22_3 = false;
  const char* tests[] = {"1596", "1670", "1719", "3134", "3341", "3414", "4098",
                         "5054", "5710", "5805", "6933", "7159", "6393", "6800"};
  for (const char* test : tests) {
    const std::string run = std::string("flesh --seed 2026 --first ") + test + " --count 1 --mode data --run";
    const auto worked = run_sluice(s, run);
    INFO(run << "\n" << worked.out << worked.err);
    CHECK(worked.code == 0);
    CHECK_THAT(worked.out, Catch::Contains("fleshed       1 pass, 0 mismatch"));
    CHECK_THAT(worked.out, Catch::Contains("sluice-spirv  1 pass, 0 mismatch"));
    CHECK_THAT(worked.out, Catch::Contains("sluice-glsl   1 pass, 0 mismatch"));
    mesa_22_3 = mesa_22_3 || worked.out.find("Mesa 22.3") != std::string::npos;
    const auto plain = run_sluice(s, run + " --workarounds none");
    failed_without += plain.code == 1 && plain.out.find("sluice-spirv  0 pass, 1 mismatch") != std::string::npos;
  }
  if (!mesa_22_3) {
    WARN("not Mesa 22.3: the failures without the workaround are not required");
    return;
  }
  CHECK(failed_without == static_cast<int>(std::size(tests)));
}

TEST_CASE("the reduced loop-exit-value shader: lavapipe gets its own SPIR-V wrong, Sluice's right") {
  Scratch s;
  const std::string amber = sluice::testing::quote(
      (std::filesystem::path(SLUICE_GOLDEN_DIR).parent_path() / "flesh" / "findings" / "lavapipe-loop-exit-value.amber")
          .string());
  const auto worked = run_sluice(s, "xcheck -j 1 " + amber);
  const std::string text = worked.err + worked.out;
  INFO(text);
  CHECK_THAT(text, Catch::Contains("loop-top-exit-test"));
  if (text.find("Mesa 22.3") == std::string::npos) {
    WARN("not Mesa 22.3: the driver's own failure is not required");
    return;
  }
  // The script's SPIR-V: the first iteration's value (126 ^ 77) after the loop.
  CHECK_THAT(text, Catch::Contains("[amber-spirv]: line 135: EXPECT o failed at byte 12: expected 2654435938, got 51"));
  // Sluice's SPIR-V and GLSL of it compute the expected buffer, which xcheck
  // reports as not reproducing the reference's failure.
  CHECK_THAT(text, Catch::Contains("[spirv-in-spirv]: EXPECT on line 135: expected fail"));
  CHECK_THAT(text, Catch::Contains("[spirv-in-glsl]: EXPECT on line 135: expected fail"));
  CHECK(text.find("[spirv-in-spirv]: EXPECT on line 135: expected fail: line 135: EXPECT o failed at byte 12: "
                  "expected 2654435938, got 51 (1 of 8 words differ), got pass") != std::string::npos);
  const auto plain = run_sluice(s, "xcheck -j 1 --workarounds none " + amber);
  INFO(plain.out << plain.err);
  // Without it they fail as the reference does.
  CHECK_THAT(plain.out, Catch::Contains("[spirv-in-spirv]: the script's EXPECT failed"));
  CHECK_THAT(plain.out, Catch::Contains("[spirv-in-glsl]: the script's EXPECT failed"));
}
