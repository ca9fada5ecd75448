// `--ub-check` on SPIR-V input (docs/ub-check.md, "SPIR-V input"): the
// SPIR-V reader fills the IR's location table from OpLine/OpString, so a
// module glslang compiled with -g (or `sluice compile -g` wrote) reports the
// GLSL lines; a module without OpLine reports each instruction's position,
// line N of `spirv-dis --no-header`. tests/tools/ub_check/fires.frag is
// compiled by glslangValidator (glslang-tools, a package scripts/setup
// installs) and drawn at 16x4 on lavapipe, as ub_check_test.cpp draws the
// GLSL itself: the findings must be its `expect` comments exactly.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "golden_file.h"
#include "tools/driver_run.h"
#include "tools/ub_check_expect.h"

namespace fs = std::filesystem;
using namespace sluice::testing;

namespace {

struct Finding {
  std::string check, file;
  unsigned line = 0, invocations = 0;
};

std::string shader(const std::string& name) { return ub_check_shader(name); }
std::multiset<UbExpect> expected(const std::string& path) { return ub_check_expected(path); }

std::vector<Finding> reported(const std::string& json) {
  std::vector<Finding> out;
  static const std::regex entry(
      R"re("check": "([a-z0-9-]+)", "file": "([^"]*)", "line": ([0-9]+), "column": [0-9]+, "invocations": ([0-9]+))re");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), entry); it != std::sregex_iterator(); ++it)
    out.push_back({(*it)[1].str(), (*it)[2].str(), static_cast<unsigned>(std::stoul((*it)[3].str())),
                   static_cast<unsigned>(std::stoul((*it)[4].str()))});
  return out;
}

// Runs a shell command; true when it exits with 0.
bool shell(const std::string& command) { return std::system(command.c_str()) == 0; }

void require_tool(const char* name) {
  if (!shell(std::string("command -v ") + name + " >/dev/null 2>&1"))
    FAIL(name << " is not installed (scripts/setup installs it)");
}

// fires.frag by glslangValidator -V (with -g: OpString/OpLine).
fs::path glslang_spirv(const Scratch& s, bool debug_lines, const std::string& name) {
  require_tool("glslangValidator");
  const fs::path out = s.dir / name;
  REQUIRE(shell("glslangValidator -V " + std::string(debug_lines ? "-g " : "") + quote(shader("fires.frag")) + " -o " +
                quote(out.string()) + " >/dev/null"));
  return out;
}

Run render(const Scratch& s, const fs::path& spirv) { return ub_check_render(s, spirv.string()); }

// The findings point at fires.frag's lines: its `expect` comments exactly.
void check_points_at_glsl(const Scratch& s, const fs::path& spirv) {
  const Run r = render(s, spirv);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  std::multiset<UbExpect> got;
  for (const Finding& f : reported(read_file((s.dir / "findings.json").string()))) {
    CHECK(fs::path(f.file).filename() == "fires.frag");
    got.emplace(f.check, f.line, f.invocations);
  }
  CHECK(got == expected(shader("fires.frag")));
  // The text form shows the GLSL source line under the message.
  CHECK(r.out.find("fires.frag:13:") != std::string::npos);
  CHECK(r.out.find("acc += float(100 / d);") != std::string::npos);
}

}  // namespace

TEST_CASE("ub-check on SPIR-V: glslang -g's OpLines give the GLSL file:line of every finding") {
  Scratch s;
  check_points_at_glsl(s, glslang_spirv(s, true, "fires.spv"));
}

TEST_CASE("ub-check on SPIR-V: `sluice compile -g` output reports the GLSL lines too") {
  Scratch s;
  const fs::path spv = s.dir / "fires.spv";
  const Run c = run_sluice(s, "compile -g " + quote(shader("fires.frag")) + " -o " + quote(spv.string()));
  INFO(c.err);
  REQUIRE(c.code == 0);
  check_points_at_glsl(s, spv);
}

TEST_CASE("ub-check on SPIR-V without OpLine: each finding names its instruction's line in spirv-dis --no-header") {
  Scratch s;
  const fs::path spv = glslang_spirv(s, false, "plain.spv");
  const Run r = render(s, spv);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  require_tool("spirv-dis");
  const fs::path dis = s.dir / "plain.dis";
  REQUIRE(shell("spirv-dis --no-header " + quote(spv.string()) + " -o " + quote(dis.string())));
  std::vector<std::string> lines;
  {
    std::istringstream in(read_file(dis.string()));
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  // The instruction each check guards, as glslang writes it.
  const std::map<std::string, std::regex> guarded = {
      {"div-by-zero", std::regex("OpSDiv")},
      {"div-overflow", std::regex("OpSDiv")},
      {"shift-out-of-range", std::regex("OpShiftLeftLogical")},
      {"index-out-of-bounds", std::regex("OpAccessChain|OpVectorExtractDynamic")},
      {"float-to-int-overflow", std::regex("OpConvertFToS")},
      {"domain-sqrt", std::regex(" Sqrt ")},
      {"domain-inversesqrt", std::regex(" InverseSqrt ")},
      {"domain-log", std::regex(" Log ")},
      {"domain-log2", std::regex(" Log2 ")},
      {"domain-pow", std::regex(" Pow ")},
      {"domain-asin", std::regex(" Asin ")},
      {"domain-acos", std::regex(" Acos ")},
      {"domain-atan2", std::regex(" Atan2 ")},
      {"domain-acosh", std::regex(" Acosh ")},
      {"domain-atanh", std::regex(" Atanh ")},
      {"domain-clamp", std::regex(" FClamp ")},
      {"domain-smoothstep", std::regex(" SmoothStep ")},
      {"domain-normalize", std::regex(" Normalize ")},
      {"domain-mod", std::regex("OpFMod")},
      {"domain-bitfield", std::regex("OpBitFieldSExtract")},
  };
  // Lines differ from the GLSL's; the checks and their counts do not.
  std::multiset<std::pair<std::string, unsigned>> got, want;
  for (const auto& [check, line, invocations] : expected(shader("fires.frag"))) want.emplace(check, invocations);
  for (const Finding& f : reported(read_file((s.dir / "findings.json").string()))) {
    INFO(f.check << " at " << f.file << ":" << f.line);
    got.emplace(f.check, f.invocations);
    CHECK(f.file == spv.string());
    REQUIRE(f.line >= 1);
    REQUIRE(f.line <= lines.size());
    const auto rule = guarded.find(f.check);
    REQUIRE(rule != guarded.end());
    CHECK(std::regex_search(lines[f.line - 1], rule->second));
    // The text form shows that disassembly line.
    CHECK(r.out.find(lines[f.line - 1]) != std::string::npos);
  }
  CHECK(got == want);
}

TEST_CASE("ub-check on SPIR-V: compile writes the map, xcheck fails the module with the GLSL lines") {
  Scratch s;
  const fs::path spv = glslang_spirv(s, true, "fires.spv");
  const fs::path out = s.dir / "checked.spv";
  const Run c = run_sluice(s, "compile --ub-check --validate " + quote(spv.string()) + " -o " + quote(out.string()));
  INFO(c.err);
  REQUIRE(c.code == 0);
  const std::string map = read_file(out.string() + ".ub.json");
  CHECK(std::regex_search(map, std::regex(R"re("file": "[^"]*fires.frag", "line": 13)re")));
  const fs::path json = s.dir / "xcheck.json";
  const Run x = run_sluice(s, "xcheck --ub-check -j 1 " + quote(spv.string()) + " --ub-report " + quote(json.string()));
  INFO(x.out << x.err);
  CHECK(x.code == 1);
  CHECK(x.out.find("[ub-check]") != std::string::npos);
  // Every (check, line) of the expect comments, whatever the size xcheck draws at.
  std::set<std::pair<std::string, unsigned>> got, want;
  for (const auto& [check, line, invocations] : expected(shader("fires.frag"))) want.emplace(check, line);
  for (const Finding& f : reported(read_file(json.string()))) got.emplace(f.check, f.line);
  CHECK(got == want);
}
