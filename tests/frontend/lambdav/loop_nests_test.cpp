// Generated rec-func nests (tests/generators/lambdav_loop_nests.h): each
// program's IR, in the header form and in the general form, computes what
// the generator's own model of the program says, at every expected pixel.
// The same programs run on lavapipe and on a GPU through
// `lambdav-loop-gen` and `sluice xcheck` (tests/CMakeLists.txt,
// docs/testing.md).
#include <catch2/catch.hpp>

#include "lambdav_loop_nests.h"
#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

// Loops whose condition tests something (LoopIf of a register).
std::size_t tested_loops(const ir::Module& m) {
  std::size_t n = 0;
  for (const ir::Block& b : main_function(m).blocks)
    for (const ir::Instruction& i : b.instructions)
      n += i.opcode == ir::Opcode::LoopIf && i.operands[0].is_register();
  return n;
}

}  // namespace

TEST_CASE("generated loop nests compute their expected colours in both loop forms") {
  std::size_t header_loops = 0, deep = 0;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    const auto nest = lambdav::generate::loop_nest(seed);
    INFO("seed " << seed << ": " << nest.shape << "\n" << nest.source);
    deep += nest.shape.starts_with("depth 4");
    for (const bool header : {true, false}) {
      lambdav::CompileOptions o = lv_options();
      o.loop_exit_in_header = header;
      const ir::Module m = lv_compile(nest.source, o);
      if (header) header_loops += tested_loops(m);
      for (const auto& p : nest.expected) {
        EvalInputs in;
        in.frag_coord = {static_cast<float>(p.x) + 0.5f, static_cast<float>(p.y) + 0.5f, 0, 1};
        const auto out = evaluate(m, in).at(0);
        REQUIRE(out.size() == 4);
        for (std::size_t c = 0; c < 4; ++c) CHECK(out[c] == p.rgba[c]);
      }
    }
  }
  // The generator reaches what it promises: depth 4, and mostly header-form loops.
  CHECK(deep > 20);
  CHECK(header_loops > 300);
}

TEST_CASE("the loop-nest generator is deterministic and varies with the seed") {
  CHECK(lambdav::generate::loop_nest(7).source == lambdav::generate::loop_nest(7).source);
  CHECK(lambdav::generate::loop_nest(7).source != lambdav::generate::loop_nest(8).source);
}
