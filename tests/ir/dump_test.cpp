#include <catch2/catch.hpp>

#include "angle_example.h"
#include "golden_file.h"
#include "ir/dump.h"

using namespace sluice;
using namespace sluice::ir;

TEST_CASE("the ANGLE README example dumps in the README's format") {
  Module m = testing::build_angle_example();
  testing::check_golden("angle_example.ir", dump(m));
}

TEST_CASE("floats print as the shortest text that reads back exactly") {
  CHECK(format_float(0.0f) == "0.0");
  CHECK(format_float(-0.0f) == "-0.0");
  CHECK(format_float(1.0f) == "1.0");
  CHECK(format_float(0.1f) == "0.1");
  CHECK(format_float(1e20f) == "1e+20");
  CHECK(format_float(std::numeric_limits<float>::infinity()) == "inf");
  CHECK(format_float(std::numeric_limits<float>::quiet_NaN()) == "nan(0x7fc00000)");
}
