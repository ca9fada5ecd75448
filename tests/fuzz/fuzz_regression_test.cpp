// Every input the fuzzers found (and a few that mark limits) is kept in
// tests/fuzz/regressions/TARGET/ with NAME.expected next to it: "compiles",
// or a part of the diagnostic the input must get. Each runs through the
// fuzz target's own pipeline (fuzz/fuzz_pipeline.h) — front end, -O1 with
// the validator after every pass, both outputs checked by spirv-val and
// glslang — so a finding that comes back fails here, in every build, not
// only in the clang fuzz build.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "fuzz_pipeline.h"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

void run_saved(const std::string& target, sluice::fuzz::Outcome (*run)(std::string_view)) {
  const fs::path dir = fs::path(SLUICE_EXAMPLES_DIR) / ".." / "tests" / "fuzz" / "regressions" / target;
  REQUIRE(fs::is_directory(dir));
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::path p = entry.path();
    if (p.extension() == ".expected") continue;
    fs::path expected_path = p;
    expected_path.replace_extension(".expected");
    INFO(p.string());
    REQUIRE(fs::exists(expected_path));
    const std::string expected = trimmed(read(expected_path));
    const auto outcome = run(read(p));
    CHECK(outcome.finding == "");
    if (expected == "compiles") CHECK(outcome.diagnostic == "");
    else CHECK_THAT(outcome.diagnostic, Catch::Contains(expected));
    ++count;
  }
  CHECK(count > 0);
}

}  // namespace

TEST_CASE("fuzz regressions: lambdav") { run_saved("lambdav", sluice::fuzz::run_lambdav); }
TEST_CASE("fuzz regressions: glsl") { run_saved("glsl", sluice::fuzz::run_glsl); }
TEST_CASE("fuzz regressions: ir") { run_saved("ir", sluice::fuzz::run_ir); }
TEST_CASE("fuzz regressions: spirv") { run_saved("spirv", sluice::fuzz::run_spirv); }
