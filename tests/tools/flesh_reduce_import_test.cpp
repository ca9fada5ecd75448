// `sluice flesh --reduce` on lavapipe: a mutant (a guaranteed mismatch,
// --mutants N --out DIR) shrinks to a smaller CFG that still mismatches,
// printed as SPIR-V assembly and `sluice cfg --dot`; a crash (injected)
// is a verdict and reduces to one loop; a passing test is refused. And `--import` of an Alloy instance: the paper's, and malformed
// XML with file:line:col, the line and a caret.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

#include "corpus.h"
#include "driver_run.h"

namespace fs = std::filesystem;
using sluice::testing::quote;
using sluice::testing::run_sluice;
using sluice::testing::Scratch;

TEST_CASE("sluice flesh --reduce shrinks a mutant to a smaller CFG that still mismatches") {
  Scratch s;
  const fs::path out = s.dir / "t";
  REQUIRE(run_sluice(s, "flesh --seed 1 --count 1 --mutants 4 --blocks 12 --timeout 2 --out " + quote(out.string())).code == 0);
  // Mutant 2 of seed 1 swaps an on-path conditional's targets.
  const fs::path mutant = out / "mutants" / "flesh-1-2";
  REQUIRE(fs::exists(mutant.string() + ".cfg"));
  const fs::path reduced = s.dir / "reduced";
  const auto r = run_sluice(s, "flesh --reduce " + quote(mutant.string()) + " --variants fleshed --out " + quote(reduced.string()));
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("fleshed mismatch: invocation 0: expected path"));
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex(R"((\d+) blocks -> (\d+), walk 48 -> (\d+); still fleshed mismatch)")));
  CHECK(std::stoi(m[2]) < std::stoi(m[1]));
  CHECK(std::stoi(m[3]) < 48);
  CHECK_THAT(r.out, Catch::Contains("mutation swap-targets %"));
  CHECK_THAT(r.out, Catch::Contains("OpBranchConditional"));
  CHECK_THAT(r.out, Catch::Contains("sluice cfg --dot:\ndigraph"));
  // The reduced test is written, and is itself reducible no further than
  // it is: running --reduce on it keeps its size.
  REQUIRE(fs::exists(reduced / "flesh-1-2-reduced.cfg"));
  CHECK(fs::exists(reduced / "flesh-1-2-reduced.amber"));
  const auto again = run_sluice(s, "flesh --reduce " + quote((reduced / "flesh-1-2-reduced.cfg").string()) + " --variants fleshed");
  INFO(again.out << again.err);
  CHECK(again.code == 0);
  CHECK_THAT(again.out, Catch::Contains(m[2].str() + " blocks -> " + m[2].str() + ","));
}

TEST_CASE("sluice flesh --reduce counts a crashing child as the failure and keeps it") {
  // The hidden --inject-failure abort:loop makes every child that runs a
  // CFG with a loop abort: the minimal crashing CFG is one loop.
  Scratch s;
  const fs::path out = s.dir / "t";
  REQUIRE(run_sluice(s, "flesh --seed 3 --count 1 --blocks 14 --mode basic --out " + quote(out.string())).code == 0);
  const auto r = run_sluice(s, "flesh --reduce " + quote((out / "basic" / "flesh-3-0").string()) +
                                   " --variants fleshed --inject-failure abort:loop");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("flesh-3-0.cfg: fleshed crash: the process died (signal 6)"));
  CHECK_THAT(r.out, Catch::Contains("12 blocks -> 4, walk 48 -> 0; still fleshed crash"));
  CHECK_THAT(r.out, Catch::Contains("%1: br %2\n%2: loop merge %3 continue %4; br %3\n%4: br %2\n%3: return\n"));
}

TEST_CASE("sluice flesh --reduce refuses a test that passes, and a bad description") {
  Scratch s;
  const fs::path out = s.dir / "t";
  REQUIRE(run_sluice(s, "flesh --seed 1 --count 1 --blocks 8 --out " + quote(out.string())).code == 0);
  const std::string test = (out / "basic" / "flesh-1-0.cfg").string();
  const auto r = run_sluice(s, "flesh --reduce " + quote(test) + " --variants fleshed");
  CHECK(r.code == 1);
  CHECK(r.err == test + ": error: the test does not fail (its variants pass): nothing to reduce\n");
  const fs::path bad = s.dir / "bad.cfg";
  std::ofstream(bad) << "mode basic\n%1: br %7\n";
  const auto b = run_sluice(s, "flesh --reduce " + quote(bad.string()));
  CHECK(b.code == 1);
  CHECK(b.err == bad.string() + ":2:8: error: block %7 does not exist (the last block is %1)\n%1: br %7\n       ^\n");
}

TEST_CASE("sluice flesh --import runs the paper's Alloy instance and reports malformed XML with a caret") {
  Scratch s;
  const std::string instance = sluice::testing::corpus_file("cfg/model/test_0.alloy-instance.xml");
  const auto r = run_sluice(s, "flesh --import " + quote(instance) + " --count 4 --mode basic,phi --run --variants fleshed,sluice-spirv");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("fleshed       8 pass, 0 mismatch"));
  CHECK_THAT(r.out, Catch::Contains("sluice-spirv  8 pass, 0 mismatch"));
  const fs::path bad = s.dir / "bad.xml";
  std::ofstream(bad) << "<alloy><instance>\n<sig label=\"this/Block\">\n  <atom label=\"B\">\n</sig>\n";
  const auto b = run_sluice(s, "flesh --import " + quote(bad.string()) + " --count 1 --out " + quote((s.dir / "o").string()));
  CHECK(b.code == 1);
  CHECK(b.err == bad.string() + ":4:3: error: malformed XML: mismatched tag\n</sig>\n  ^\n");
}
