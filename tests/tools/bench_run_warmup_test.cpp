// `sluice bench-run --warmup-ms T`: the untimed runs before the timed ones
// keep the device busy for at least T ms (a probe of 5 runs gives one run's
// time), because a fixed count left short dispatches timed in a slower state
// of an NVIDIA GPU (tools/sluice_bench_run.cpp). The TSV's warmup_runs
// column says how many ran.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/driver_run.h"

using namespace sluice::testing;

namespace {

struct Row {
  double median_ms = 0;
  unsigned warmup_runs = 0;
};

// The TSV's one data row (one variant): median_ms and warmup_runs.
Row read_row(const std::string& path) {
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  REQUIRE(header == "shader\tvariant\twords\tmedian_ms\tmin_ms\tmax_ms\tagrees\twarmup_runs");
  REQUIRE(std::getline(in, line));
  std::vector<std::string> cells;
  std::stringstream fields(line);
  for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
  REQUIRE(cells.size() == 8);
  return Row{std::stod(cells[3]), static_cast<unsigned>(std::stoul(cells[7]))};
}

// A fragment shader whose draw lavapipe's timestamps bracket (about a
// millisecond at 64 x 64 on the development machine).
constexpr const char* kShader =
    "// bench-run: draw 64 64\n"
    "#version 450\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() {\n"
    "  float a = 0.0;\n"
    "  for (int i = 0; i < 64; ++i) a += sin(gl_FragCoord.x * float(i));\n"
    "  color = vec4(a, 0.0, 0.0, 1.0);\n"
    "}\n";

}  // namespace

TEST_CASE("bench-run: --warmup-ms runs as many warm-up runs as fill that much GPU time") {
  Scratch s;
  const auto frag = s.write("busy.frag", kShader);
  const std::string base = "bench-run " + quote(frag.string()) + " --variants sluice-O1 --repeats 3 --warmup 2";

  const auto plain = s.dir / "plain.tsv";
  const Run r0 = run_sluice(s, base + " --warmup-ms 0 --tsv " + quote(plain.string()));
  INFO(r0.out << r0.err);
  REQUIRE(r0.code == 0);
  CHECK(r0.out.find("at least 2 warm-up runs and 0 ms of warm-up GPU time") != std::string::npos);
  CHECK(read_row(plain.string()).warmup_runs == 2);

  const auto filled = s.dir / "filled.tsv";
  const Run r1 = run_sluice(s, base + " --warmup-ms 40 --tsv " + quote(filled.string()));
  INFO(r1.out << r1.err);
  REQUIRE(r1.code == 0);
  const Row row = read_row(filled.string());
  INFO("median " << row.median_ms << " ms, " << row.warmup_runs << " warm-up runs");
  REQUIRE(row.median_ms > 0);
  CHECK(row.warmup_runs >= 2);
  // The count comes from the probe's median, which may differ from the
  // timed runs' (load on the machine); a factor of 3 either way allows it.
  CHECK(row.warmup_runs * row.median_ms >= 40.0 / 3);
  if (row.median_ms < 40.0 / 3) CHECK(row.warmup_runs > 2);
}
