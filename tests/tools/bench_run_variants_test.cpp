// `sluice bench-run --variants`: sluice-O0 is the SPIR-V `sluice compile -O0`
// writes (every variable in memory, as -O0 means everywhere: it once ran the
// -O0 passes but promoted variables to SSA, so its column timed nearly -O1's
// code), and file:PATH times the module in PATH beside the others. The TSV's
// words column says which module ran.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tools/driver_run.h"

using namespace sluice::testing;

namespace {

// variant -> words, from bench-run's TSV.
std::map<std::string, std::string> words_by_variant(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::string> out;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    REQUIRE(cells.size() == 8);
    out[cells[1]] = cells[2];
  }
  return out;
}

constexpr const char* kShader =
    "// bench-run: dispatch 1 1 1 elements 64\n"
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, set = 0, binding = 0) buffer Out { uint count[]; };\n"
    "void main() {\n"
    "  uint n = 0u;\n"
    "  vec2 z = vec2(0.0);\n"
    "  for (; n < 100u; ++n) { z = vec2(z.x * z.x - z.y, 0.5 * z.x) + vec2(0.25); if (dot(z, z) > 4.0) break; }\n"
    "  count[gl_GlobalInvocationID.x] = n + gl_GlobalInvocationID.x;\n"
    "}\n";

}  // namespace

TEST_CASE("bench-run: sluice-O0 runs what compile -O0 writes, and file:PATH runs that file") {
  Scratch s;
  const auto comp = s.write("loop.comp", kShader);
  const auto o0 = s.dir / "o0.spv", o1 = s.dir / "o1.spv";
  for (const auto& [level, out] : {std::pair{"-O0", o0}, std::pair{"-O1", o1}}) {
    const Run c = run_sluice(s, "compile " + std::string(level) + " " + quote(comp.string()) + " -o " + quote(out.string()));
    INFO(c.out << c.err);
    REQUIRE(c.code == 0);
  }
  const auto words_of = [](const std::filesystem::path& p) { return std::to_string(std::filesystem::file_size(p) / 4); };
  REQUIRE(words_of(o0) != words_of(o1));  // -O0 keeps its variables in memory

  const auto tsv = s.dir / "t.tsv";
  const Run r = run_sluice(s, "bench-run " + quote(comp.string()) + " --variants sluice-O0,sluice-O1,file:" +
                                  o0.string() + " --repeats 2 --warmup 1 --warmup-ms 0 --workarounds none --tsv " +
                                  quote(tsv.string()));
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto words = words_by_variant(tsv.string());
  CHECK(words.at("sluice-O0") == words_of(o0));
  CHECK(words.at("sluice-O1") == words_of(o1));
  CHECK(words.at("file:" + o0.string()) == words_of(o0));
  CHECK(r.out.find("differs") == std::string::npos);
}

TEST_CASE("bench-run: a file: variant that is not SPIR-V is an error that names the file") {
  Scratch s;
  const auto comp = s.write("loop.comp", kShader);
  const auto bad = s.write("bad.spvasm", "OpCapability Shader\nthis is not SPIR-V\n");
  const Run r = run_sluice(s, "bench-run " + quote(comp.string()) + " --variants sluice-O1,file:" + bad.string() +
                                  " --repeats 1 --warmup 1 --warmup-ms 0");
  INFO(r.out << r.err);
  CHECK(r.code != 0);
  CHECK((r.out + r.err).find(bad.string()) != std::string::npos);
}

TEST_CASE("bench-run: --rounds interleaves the variants and takes the median over every round's runs") {
  Scratch s;
  const auto comp = s.write("loop.comp", kShader);
  const Run r = run_sluice(s, "bench-run " + quote(comp.string()) +
                                  " --variants sluice-O0,sluice-O1 --repeats 2 --rounds 3 --warmup 1 --warmup-ms 0");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("median of 6 timed runs (3 round(s) of 2") != std::string::npos);
  CHECK(r.out.find("| loop.comp |") != std::string::npos);
  const Run zero = run_sluice(s, "bench-run " + quote(comp.string()) + " --rounds 0");
  CHECK(zero.code != 0);
  CHECK(zero.err.find("--rounds must be positive") != std::string::npos);
}
