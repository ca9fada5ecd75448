// Debug line information from the IR's location table: `sluice compile -g`
// writes OpString/OpSource/OpLine (validated by spirv-val), and `ir-dump
// --locations` prints each instruction's file:line:col.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "tools/driver_run.h"

using namespace sluice::testing;

TEST_CASE("compile -g: OpString, OpSource and an OpLine per source position, valid SPIR-V") {
  Scratch s;
  const auto frag = s.write("x.frag",
                            "#version 450\n"
                            "layout(location = 0) in float v;\n"
                            "layout(location = 0) out vec4 o;\n"
                            "void main() {\n"
                            "  float a = sqrt(v);\n"
                            "  o = vec4(a * 2.0);\n"
                            "}\n");
  for (const char* opt : {"-O0", "-O1"}) {
    INFO(opt);
    const Run r = run_sluice(s, std::string("compile -g ") + opt + " --validate --emit spvasm " + quote(frag.string()));
    INFO(r.err);
    REQUIRE(r.code == 0);
    std::smatch m;
    REQUIRE(std::regex_search(r.out, m, std::regex(R"((%\w+) = OpString "[^"]*x\.frag")")));
    const std::string file = m[1].str();
    CHECK(r.out.find("OpSource Unknown 0 " + file) != std::string::npos);
    // Lines 5 and 6 of the shader hold its instructions.
    CHECK(std::regex_search(r.out, std::regex("OpLine " + file + " 5 [0-9]+")));
    CHECK(std::regex_search(r.out, std::regex("OpLine " + file + " 6 [0-9]+")));
  }
  const Run plain = run_sluice(s, "compile --emit spvasm " + quote(frag.string()));
  CHECK(plain.out.find("OpLine") == std::string::npos);
  CHECK(plain.out.find("OpString") == std::string::npos);
}

TEST_CASE("ir-dump --locations: each instruction's file:line:col") {
  Scratch s;
  const auto lv = s.write("x.lv", "(output 0 (vec4 (sqrt (.x (frag-coord))) 0 0 1))\n");
  const std::string out_path = (s.dir / "dump.txt").string();
  const std::string cmd = quote(std::string(SLUICE_TOOLS_DIR) + "/ir-dump") + " --locations " + quote(lv.string()) +
                          " > " + quote(out_path);
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string dump = read_file(out_path);
  INFO(dump);
  // (sqrt ...) opens at column 17 of line 1.
  CHECK(std::regex_search(dump, std::regex(R"(Sqrt r[0-9]+ +@ [^\n]*x\.lv:1:17)")));
}
