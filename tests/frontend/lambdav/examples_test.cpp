// The bundled examples (examples/*.lv): each compiles to validated IR equal
// to its golden dump (tests/golden/lambdav_<name>.ir; SLUICE_UPDATE_GOLDEN=1
// regenerates), and where an `; expect: r g b a` comment gives the colour,
// the reference evaluator computes that colour.
#include <catch2/catch.hpp>

#include <filesystem>
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

// The numbers of a "; expect: ..." line, if the source has one.
std::optional<std::vector<float>> expected_colour(const std::string& source) {
  std::istringstream lines(source);
  std::string line;
  const std::string key = "; expect:";
  while (std::getline(lines, line)) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream numbers(line.substr(key.size()));
    std::vector<float> values;
    float x = 0;
    while (numbers >> x) values.push_back(x);
    return values;
  }
  return std::nullopt;
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

TEST_CASE("the examples compute the colours their expect comments give") {
  int checked = 0;
  for (const auto& path : examples()) {
    const std::string source = read_file(path.string());
    const auto expected = expected_colour(source);
    if (!expected) continue;
    INFO(path);
    const auto out = evaluate(lv_compile(source));
    REQUIRE(out.count(0) == 1);
    REQUIRE(out.at(0).size() == expected->size());
    for (std::size_t i = 0; i < expected->size(); ++i) CHECK(out.at(0)[i] == Approx((*expected)[i]));
    ++checked;
  }
  CHECK(checked >= 2);
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
