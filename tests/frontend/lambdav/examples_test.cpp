// The bundled examples (examples/*.lv): each compiles to validated IR equal
// to its golden dump (tests/golden/lambdav_<name>.ir; SLUICE_UPDATE_GOLDEN=1
// regenerates), and each carries `; expect` comments giving colours that the
// reference evaluator computes (and `sluice xcheck` checks on the GPU path).
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

#include "golden_file.h"
#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

std::vector<std::filesystem::path> examples() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(SLUICE_EXAMPLES_DIR))
    if (e.path().extension() == ".lv") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The `; expect: r g b a` (every pixel) and `; expect X Y: r g b a` lines
// `sluice xcheck` checks on its 64 x 64 draw (tools/sluice_xcheck.cpp).
struct Expectation {
  std::optional<std::array<unsigned, 2>> pixel;  // unset: every pixel (evaluated at (0, 0))
  std::vector<float> rgba;
};

std::vector<Expectation> expectations(const std::string& source) {
  std::vector<Expectation> out;
  std::istringstream lines(source);
  std::string line;
  while (std::getline(lines, line)) {
    Expectation e;
    std::string rest;
    if (line.rfind("; expect:", 0) == 0) {
      rest = line.substr(9);
    } else if (unsigned x = 0, y = 0; std::sscanf(line.c_str(), "; expect %u %u:", &x, &y) == 2) {
      e.pixel = std::array<unsigned, 2>{x, y};
      rest = line.substr(line.find(':') + 1);
    } else {
      continue;
    }
    std::istringstream numbers(rest);
    float v = 0;
    while (numbers >> v) e.rgba.push_back(v);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

TEST_CASE("the bundled examples match their golden IR dumps") {
  const auto files = examples();
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.stem().string());
  for (const char* required : {"yellow", "nat-fold", "gradient"})
    CHECK(std::find(names.begin(), names.end(), required) != names.end());
  for (const auto& path : files) {
    INFO(path);
    const std::string source = read_file(path.string());
    const ir::Module m = lv_compile(source, lv_options(path.filename().string()));
    check_golden("lambdav_" + path.stem().string() + ".ir", ir::dump(m));
  }
}

// Every example carries expectations, so that `sluice xcheck` compares
// Sluice's output with something other than Sluice; the reference evaluator
// computes the same colours.
TEST_CASE("the examples compute the colours their expect comments give") {
  for (const auto& path : examples()) {
    INFO(path);
    const std::string source = read_file(path.string());
    const auto expects = expectations(source);
    CHECK_FALSE(expects.empty());
    const ir::Module m = lv_compile(source);
    for (const Expectation& e : expects) {
      EvalInputs inputs;
      if (e.pixel) inputs.frag_coord = {(*e.pixel)[0] + 0.5f, (*e.pixel)[1] + 0.5f, 0, 1};
      const auto out = evaluate(m, inputs);
      REQUIRE(out.count(0) == 1);
      REQUIRE(out.at(0).size() == e.rgba.size());
      for (std::size_t i = 0; i < e.rgba.size(); ++i) CHECK(out.at(0)[i] == Approx(e.rgba[i]).margin(1e-5));
    }
  }
}

TEST_CASE("the gradient example depends on the fragment position") {
  const ir::Module m = lv_compile(read_file(std::string(SLUICE_EXAMPLES_DIR) + "/gradient.lv"));
  EvalInputs corner, ring;
  corner.frag_coord = {64, 192, 0, 1};
  ring.frag_coord = {128 + 96, 128, 0, 1};
  const auto a = evaluate(m, corner).at(0);
  CHECK(a[0] == 64.0f / 256);
  CHECK(a[1] == 192.0f / 256);
  CHECK(a[2] == 0.0f);  // far from the ring
  CHECK(evaluate(m, ring).at(0)[2] == 1.0f);  // on it
}
