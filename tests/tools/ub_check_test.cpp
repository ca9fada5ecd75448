// `--ub-check` end to end (docs/ub-check.md): the shaders in
// tests/tools/ub_check are drawn at 16x4 on lavapipe by `sluice render
// --ub-check`, and the findings must be exactly the `expect <check> <line>
// <invocations>` comments each file carries (worked out by hand from
// gl_FragCoord), no more and no fewer; the guarded twins report nothing.
// Also: `compile --ub-check` writes MAP.json, and `ub-report` decodes a
// buffer written by hand with it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "corpus.h"
#include "golden_file.h"
#include "tools/driver_run.h"
#include "tools/ub_check_expect.h"

namespace fs = std::filesystem;
using namespace sluice::testing;

namespace {

using Finding = UbExpect;

std::string shader(const std::string& name) { return ub_check_shader(name); }
std::multiset<Finding> expected(const std::string& path) { return ub_check_expected(path); }

std::multiset<Finding> reported(const std::string& json) {
  std::multiset<Finding> out;
  static const std::regex entry(
      R"re("check": "([a-z0-9-]+)", "file": "[^"]*", "line": ([0-9]+), "column": [0-9]+, "invocations": ([0-9]+))re");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), entry); it != std::sregex_iterator(); ++it)
    out.emplace((*it)[1].str(), std::stoul((*it)[2].str()), std::stoul((*it)[3].str()));
  return out;
}

Run render(const Scratch& s, const std::string& file) { return ub_check_render(s, shader(file)); }

}  // namespace

TEST_CASE("ub-check: every check fires at the invocations worked out by hand, and only there") {
  for (const char* file : {"fires.frag", "fires.lv", "uninitialized.frag", "cascade.frag"}) {
    INFO(file);
    Scratch s;
    const Run r = render(s, file);
    INFO(r.out << r.err);
    CHECK(r.code == 1);
    const auto want = expected(shader(file));
    REQUIRE(!want.empty());
    CHECK(reported(read_file((s.dir / "findings.json").string())) == want);
    // The text form: file:line:col: runtime error: ... with the source line.
    CHECK(r.out.find(": runtime error: ") != std::string::npos);
    CHECK(r.out.find(" invocations, first at (") != std::string::npos);
  }
}

TEST_CASE("ub-check: the guarded twins report nothing") {
  for (const char* file : {"guarded.frag", "guarded.lv", "guarded-uninitialized.frag", "sample-mask-index-guarded.frag"}) {
    INFO(file);
    Scratch s;
    const Run r = render(s, file);
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(reported(read_file((s.dir / "findings.json").string())).empty());
  }
}

TEST_CASE("ub-check: a constant index past gl_SampleMask's ceil(gl_MaxSamples / 32) elements is a compile-time error") {
  // glslang 12 sizes the array from the index instead (docs/ub-check.md,
  // "Constant indices"); the guarded twin (index 0) is in the test above.
  Scratch s;
  const std::string corpus = corpus_file("glsl/index_outside_sample_mask_range.frag");
  const std::string write_twin = s.write("write.frag",
                                         "#version 450\nlayout(location = 0) out vec4 color;\nvoid main() {\n"
                                         "  gl_SampleMask[2] = 0;\n  color = vec4(1.0);\n}\n")
                                     .string();
  for (const auto& [file, where, name] :
       {std::tuple{shader("sample-mask-index.frag"), std::string(":8:37: error: "), std::string("gl_SampleMaskIn")},
        std::tuple{write_twin, std::string(":4:16: error: "), std::string("gl_SampleMask")},
        std::tuple{corpus, std::string(":6:40: error: "), std::string("gl_SampleMask")}}) {
    INFO(file);
    const Run r = ub_check_render(s, file);
    INFO(r.out << r.err);
    CHECK(r.code == 1);
    CHECK(r.err.find(file + where + name + " array index out of range") != std::string::npos);
    CHECK(r.err.find("^") != std::string::npos);  // the source line and a caret
    const Run plain = run_sluice(s, "compile " + quote(file) + " -o " + quote((s.dir / "x.spv").string()));
    CHECK(plain.code == 1);  // with or without --ub-check
  }
}

TEST_CASE("ub-check: instrumented and plain shaders draw the same picture where nothing fires") {
  Scratch s;
  const std::string file = shader("guarded.frag");
  const Run plain = run_sluice(s, "render " + quote(file) + " --size 16x4 --format pfm -o " +
                                      quote((s.dir / "plain.pfm").string()));
  const Run checked = run_sluice(s, "render --ub-check " + quote(file) + " --size 16x4 --format pfm -o " +
                                        quote((s.dir / "checked.pfm").string()));
  REQUIRE(plain.code == 0);
  REQUIRE(checked.code == 0);
  CHECK(read_file((s.dir / "plain.pfm").string()) == read_file((s.dir / "checked.pfm").string()));
}

TEST_CASE("ub-check: compile writes MAP.json beside the output, ub-report decodes a buffer with it") {
  Scratch s;
  const fs::path spv = s.dir / "fires.spv";
  const Run c = run_sluice(s, "compile --ub-check --validate " + quote(shader("fires.frag")) + " -o " + quote(spv.string()));
  INFO(c.err);
  REQUIRE(c.code == 0);
  const std::string map = read_file(spv.string() + ".ub.json");
  CHECK(map.find("\"capacity\": 65536") != std::string::npos);
  // The location of line 25's sqrt, from the map.
  static const std::regex sqrt_location(R"re("id": ([0-9]+), "file": "[^"]*fires.frag", "line": 25)re");
  std::smatch m;
  REQUIRE(std::regex_search(map, m, sqrt_location));
  const std::uint32_t location = static_cast<std::uint32_t>(std::stoul(m[1].str()));
  // A buffer as an application would read it back: three reports, two
  // of them by one invocation.
  std::vector<std::uint32_t> words = {3, 0, 0, 0, 6, location, 4, 1, 6, location, 4, 1, 6, location, 2, 3};
  const fs::path bin = s.dir / "findings.bin";
  std::ofstream(bin, std::ios::binary).write(reinterpret_cast<const char*>(words.data()),
                                             static_cast<std::streamsize>(words.size() * 4));
  const Run r = run_sluice(s, "ub-report " + quote(bin.string()) + " --map " + quote(spv.string() + ".ub.json"));
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.out.find("fires.frag:25:") != std::string::npos);
  CHECK(r.out.find("[domain-sqrt] in 2 invocations, first at (4, 1)") != std::string::npos);
  // An empty buffer: nothing fired, exit code 0.
  words.assign(4, 0);
  std::ofstream(bin, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  CHECK(run_sluice(s, "ub-report " + quote(bin.string()) + " --map " + quote(spv.string() + ".ub.json")).code == 0);
  // A damaged map: file:line:col: error, exit code 1.
  const fs::path bad = s.write("bad.json", "{\n  \"set\": x\n}\n");
  const Run e = run_sluice(s, "ub-report " + quote(bin.string()) + " --map " + quote(bad.string()));
  CHECK(e.code == 1);
  CHECK(e.err.find("bad.json:2:10: error:") != std::string::npos);
}

TEST_CASE("ub-check: a set/binding the shader uses is refused") {
  Scratch s;
  const Run r = run_sluice(s, "compile --ub-check --ub-set 0 --ub-binding 0 " + quote(shader("fires.frag")) + " -o " +
                                  quote((s.dir / "x.spv").string()));
  CHECK(r.code == 1);
  CHECK(r.err.find("set 0 binding 0: the shader uses it") != std::string::npos);
}

TEST_CASE("ub-check: xcheck --ub-check fails the file that fires, passes its guarded twin") {
  Scratch s;
  const fs::path json = s.dir / "findings.json";
  // λV files are drawn at 64x64 by xcheck: 64 rows instead of fires.lv's 4.
  const Run r = run_sluice(s, "xcheck --ub-check -j 1 " + quote(shader("fires.lv")) + " " + quote(shader("guarded.lv")) +
                                  " --ub-report " + quote(json.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.out.find("fail " + shader("fires.lv") + " [ub-check]: 4 findings") != std::string::npos);
  CHECK(r.out.find(shader("guarded.lv")) == std::string::npos);  // only failures are listed by name
  const std::multiset<Finding> want = {{"domain-sqrt", 5, 10 * 64}, {"domain-log", 6, 4 * 64},
                                       {"domain-atan2", 7, 1}, {"domain-mod", 8, 64}};
  CHECK(reported(read_file(json.string())) == want);
}
