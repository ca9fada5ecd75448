// `sluice xcheck` of SPIR-V input (tests/tools/xcheck_spirv/*.spvasm) and of
// an Amber script's own SPIR-V through the SPIR-V front end, on lavapipe:
// a module all three ways agree on passes, a module whose value is
// undefined (OpUndef, which Sluice reads as zero and lavapipe drops) is
// reported at its first differing pixel.
#include <catch2/catch.hpp>

#include <filesystem>

#include "driver_run.h"

using namespace sluice::testing;

namespace {

std::string xcheck_input(const std::string& name) {
  return (std::filesystem::path(SLUICE_GOLDEN_DIR).parent_path() / "tools" / "xcheck_spirv" / name).string();
}

}  // namespace

TEST_CASE("xcheck of SPIR-V assembly runs it as given, as Sluice's SPIR-V and as Sluice's GLSL") {
  Scratch s;
  const auto json = s.dir / "r.json";
  const Run r = run_sluice(s, "xcheck -j 1 " + quote(xcheck_input("loop-phi.spvasm")) + " --json " + quote(json.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("input-spirv               1      0      0      0"));
  CHECK_THAT(r.out, Catch::Contains("sluice-spirv              1      0      0      0"));
  CHECK_THAT(r.out, Catch::Contains("sluice-glsl               1      0      0      0"));
  CHECK_THAT(r.out, Catch::Contains("1 passed, 0 failed"));
  CHECK_THAT(read_file(json.string()), Catch::Contains("\"status\": \"pass\", \"variants\": {\"input-spirv\""));

  // The same module as a binary, found in a directory.
  const auto dir = s.dir / "bin";
  std::filesystem::create_directories(dir);
  const Run compiled = run_sluice(s, "compile " + quote(xcheck_input("loop-phi.spvasm")) + " -O0 --emit spv -o " +
                                         quote((dir / "loop.spv").string()));
  REQUIRE(compiled.code == 0);
  const Run b = run_sluice(s, "xcheck -j 1 " + quote(dir.string()));
  INFO(b.out << b.err);
  CHECK(b.code == 0);
  CHECK_THAT(b.out, Catch::Contains("1 passed, 0 failed"));
}

TEST_CASE("xcheck of SPIR-V reports where Sluice's translations differ from the input") {
  Scratch s;
  const Run r = run_sluice(s, "xcheck -j 1 " + quote(xcheck_input("undef-select.spvasm")));
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  for (const char* variant : {"sluice-spirv", "sluice-glsl"})
    CHECK_THAT(r.out, Catch::Contains(std::string("undef-select.spvasm [") + variant +
                                      "]: location 0, pixel (0, 0), channel R: expected 1 (0x3f800000), got 0"));
  CHECK_THAT(r.out, Catch::Contains("input-spirv               1      0      0      0"));
  CHECK_THAT(r.out, Catch::Contains("0 passed, 1 failed"));
}

TEST_CASE("xcheck of SPIR-V that cannot be read is that file's error") {
  Scratch s;
  const auto bad = s.write("bad.spvasm", "OpCapability Shader\n%1 = OpBogus\n");
  const Run r = run_sluice(s, "xcheck -j 1 " + quote(bad.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("error " + bad.string() + " [input-spirv]: '" + bad.string() + "': "));
}

TEST_CASE("xcheck of an Amber script also runs its own SPIR-V through the SPIR-V front end") {
  const std::string script = std::string(SLUICE_CORPUS_DIR) + "/exec/always-false-if-in-do-while.amber";
  if (!std::filesystem::exists(script)) FAIL("the corpus is missing: " << script);
  Scratch s;
  const auto json = s.dir / "r.json";
  const Run r = run_sluice(s, "xcheck -j 1 " + quote(script) + " --json " + quote(json.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  const std::string report = read_file(json.string());
  CHECK_THAT(report, Catch::Contains("\"spirv-in-spirv\": {\"status\": \"pass\""));
  CHECK_THAT(report, Catch::Contains("\"spirv-in-glsl\": {\"status\": \"pass\""));
  CHECK_THAT(report, !Catch::Contains("spirv-cross"));

  // --spirv-input-every 0: only the GLSL front end's variants.
  const Run none = run_sluice(s, "xcheck -j 1 --spirv-input-every 0 " + quote(script));
  CHECK(none.code == 0);
  CHECK_THAT(none.out, !Catch::Contains("spirv-in-"));

  // The SPIRV-Cross peer, when the tool is installed, is reported apart.
  if (std::system("command -v spirv-cross >/dev/null 2>&1") == 0) {
    const Run peer = run_sluice(s, "xcheck -j 1 --peer spirv-cross " + quote(script) + " --json " + quote(json.string()));
    INFO(peer.out << peer.err);
    CHECK(peer.code == 0);
    CHECK_THAT(peer.out, Catch::Contains("peers (not counted):\nspirv-cross"));
    CHECK_THAT(read_file(json.string()), Catch::Contains("\"peer\": true"));
  }
}

TEST_CASE("a call that may discard stays a call in a continue construct, and runs as the input does") {
  // -O1 inlines; inlining the OpKill into the continue block would give SPIR-V
  // the output cannot write ("Discard inside a loop's continue block").
  Scratch s;
  const std::string input = quote(xcheck_input("kill-in-continue-call.spvasm"));
  const Run c = run_sluice(s, "compile " + input + " -O1 --emit spv --validate -o " + quote((s.dir / "k.spv").string()));
  INFO(c.err);
  CHECK(c.code == 0);
  const Run r = run_sluice(s, "xcheck -j 1 " + input);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("1 passed, 0 failed"));
}

// `sluice xcheck` of tests/tools/xcheck_spirv/NAME passes all three ways.
static void check_passes_all_ways(const std::string& name) {
  Scratch s;
  const Run r = run_sluice(s, "xcheck -j 1 " + quote(xcheck_input(name)));
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("sluice-spirv              1      0      0      0"));
  CHECK_THAT(r.out, Catch::Contains("sluice-glsl               1      0      0      0"));
  CHECK_THAT(r.out, Catch::Contains("1 passed, 0 failed"));
}

TEST_CASE("OpDemoteToHelperInvocation runs as the input does, through Sluice's SPIR-V and GLSL") {
  check_passes_all_ways("demote.spvasm");
}

TEST_CASE("exits without a merge instruction (a conditional fall-through, a Merge beside a break) run as the input does") {
  check_passes_all_ways("exits-without-merge.spvasm");
}

TEST_CASE("a loop header branching into its body without OpSelectionMerge runs as the input does") {
  check_passes_all_ways("loop-header-split.spvasm");
}
