// `sluice flesh` from the command line: --out is byte-identical for a seed,
// bad options get a message and exit code 1, and a stripped copy of the
// binary runs tests on its own (what the GPU machine is given).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "driver_run.h"

namespace fs = std::filesystem;
using sluice::testing::quote;
using sluice::testing::run_sluice;
using sluice::testing::Scratch;

namespace {

// Every file under `dir`, relative path → contents.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = sluice::testing::read_file(e.path().string());
  return files;
}

}  // namespace

TEST_CASE("sluice flesh --out writes byte-identical tests for the same seed") {
  Scratch s;
  const std::string a = (s.dir / "a").string(), b = (s.dir / "b").string(), c = (s.dir / "c").string();
  REQUIRE(run_sluice(s, "flesh --seed 3 --count 6 --mode all --out " + quote(a)).code == 0);
  REQUIRE(run_sluice(s, "flesh --seed 3 --count 6 --mode all --out " + quote(b)).code == 0);
  REQUIRE(run_sluice(s, "flesh --seed 4 --count 6 --mode all --out " + quote(c)).code == 0);
  const auto ta = tree(a), tb = tree(b), tc = tree(c);
  CHECK(ta.size() == 6 * 5 * 6);  // tests × modes × (.spv .spvasm .amber .directions .expected .cfg)
  CHECK(ta.count("phi-threads/flesh-3-5.amber") == 1);
  CHECK(ta == tb);
  CHECK(ta.at("basic/flesh-3-0.spvasm") != tc.at("basic/flesh-4-0.spvasm"));
}

TEST_CASE("sluice flesh --source tree writes byte-identical tests for the same seed") {
  Scratch s;
  const std::string a = (s.dir / "a").string(), b = (s.dir / "b").string();
  const auto r = run_sluice(s, "flesh --source tree --seed 5 --count 4 --mode basic,data --out " + quote(a));
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("next-block "));
  REQUIRE(run_sluice(s, "flesh --source tree --seed 5 --count 4 --mode basic,data --out " + quote(b)).code == 0);
  const auto ta = tree(a), tb = tree(b);
  CHECK(ta.size() == 4 * 2 * 6);  // tests × modes × (.spv .spvasm .amber .directions .expected .cfg)
  CHECK(ta == tb);
  // A different source gives different CFGs for the same seed.
  REQUIRE(run_sluice(s, "flesh --seed 5 --count 1 --mode basic --out " + quote(b)).code == 0);
  CHECK(tree(b).at("basic/flesh-5-0.spvasm") != ta.at("basic/flesh-5-0.spvasm"));
}

TEST_CASE("sluice flesh refuses bad options with a message and exit code 1") {
  Scratch s;
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"flesh --mode basic,fancy --run",
       "sluice flesh: error: --mode 'basic,fancy': column 7: unknown mode 'fancy' (basic, phi, threads, phi+threads, "
       "data, all)\n"},
      {"flesh --variants fleshed,glsl --run",
       "sluice flesh: error: --variants 'fleshed,glsl': column 9: unknown variant 'glsl' (fleshed, sluice-spirv, "
       "sluice-glsl, spirv-cross)\n"},
      {"flesh --device nvidia --run", "sluice flesh: error: --device 'nvidia': expected lavapipe (or cpu) or gpu\n"},
      {"flesh --count 3", "sluice flesh: error: nothing to do: give --out DIR, --run or --mutants N\n"},
      {"flesh --blocks 2 --run", "sluice flesh: error: --blocks 2: expected 4-100000\n"},
      {"flesh --batch 0 --run", "sluice flesh: error: --batch 0: expected at least one test per submission\n"},
      {"flesh --bundle 0 --run", "sluice flesh: error: --bundle 0: expected 1-4096\n"},
      {"flesh --source ir --run",
       "sluice flesh: error: --source 'ir': expected spirv (the direct generator) or tree (Sluice block trees)\n"},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    const auto r = run_sluice(s, c.args);
    CHECK(r.code == 1);
    CHECK(r.err == c.message);
  }
}

TEST_CASE("a stripped copy of sluice runs fleshed tests on its own") {
  Scratch s;
  const fs::path copy = s.dir / "sluice-copy";
  fs::copy_file(fs::path(SLUICE_TOOLS_DIR) / "sluice", copy);
  REQUIRE(std::system(("strip " + quote(copy.string())).c_str()) == 0);
  const fs::path out = s.dir / "out.txt";
  const int status = std::system((quote(copy.string()) + " flesh --seed 2 --count 4 --mode threads --run --device lavapipe >" +
                                  quote(out.string()) + " 2>&1")
                                     .c_str());
  const std::string text = sluice::testing::read_file(out.string());
  INFO(text);
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_THAT(text, Catch::Contains("fleshed       4 pass, 0 mismatch"));
  CHECK_THAT(text, Catch::Contains("sluice-glsl   4 pass, 0 mismatch"));
}

TEST_CASE("sluice flesh --import fleshes a SPIR-V module's CFG, a bad file gets a positioned error") {
  Scratch s;
  const std::string dir = (s.dir / "t").string();
  REQUIRE(run_sluice(s, "flesh --seed 8 --count 2 --blocks 30 --out " + quote(dir)).code == 0);
  const std::string module = dir + "/basic/flesh-8-1.spvasm";
  const auto r = run_sluice(s, "flesh --import " + quote(module) + " --count 3 --mode phi+threads --run");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("fleshed       3 pass, 0 mismatch"));
  CHECK_THAT(r.out, Catch::Contains("sluice-spirv  3 pass, 0 mismatch"));

  const auto bad = s.write("bad.spvasm", "OpCapability Shader\n  OpFoo %x\n");
  const auto e = run_sluice(s, "flesh --import " + quote(bad.string()) + " --run");
  CHECK(e.code == 1);
  CHECK(e.err == bad.string() + ":2:3: error: Invalid Opcode name 'OpFoo'\n  OpFoo %x\n  ^\n");
}
