// `sluice bench-run --variants …,sluice-O1-ub-check` (docs/ub-check.md,
// "Overhead"): the instrumented variant is timed only where no check fires;
// a shader that divides by zero is reported with its finding and exit code
// 1, and an unknown variant name is a usage error.
#include <catch2/catch.hpp>

#include <string>

#include "tools/driver_run.h"

using namespace sluice::testing;

TEST_CASE("bench-run: sluice-O1-ub-check reports a check that fires instead of timing it") {
  Scratch s;
  const auto frag = s.write("div.frag",
                            "// bench-run: draw 8 8\n"
                            "#version 450\n"
                            "layout(location = 0) out vec4 color;\n"
                            "void main() {\n"
                            "  int d = int(gl_FragCoord.x) - 3;\n"
                            "  color = vec4(float(100 / d), 0.0, 0.0, 1.0);\n"
                            "}\n");
  const Run r = run_sluice(s, "bench-run " + quote(frag.string()) +
                                  " --repeats 1 --warmup 0 --warmup-ms 0 --variants sluice-O1,sluice-O1-ub-check");
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.err.find("sluice-O1-ub-check: a check fired") != std::string::npos);
  // x = 3 in each of the 8 rows.
  CHECK(r.err.find("div.frag:6:") != std::string::npos);
  CHECK(r.err.find("[div-by-zero] in 8 invocations, first at (3, 0)") != std::string::npos);
  CHECK(r.out.find("| fired |") != std::string::npos);
}

TEST_CASE("bench-run: an unknown --variants name is a usage error naming the known ones") {
  Scratch s;
  const Run r = run_sluice(s, "bench-run x.frag --variants sluice-O1,sluice-O3");
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown --variants name 'sluice-O3'") != std::string::npos);
  CHECK(r.err.find("sluice-O1-ub-check") != std::string::npos);
}
