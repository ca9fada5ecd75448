// Nesting depth costs the emitter heap, never native stack: 100,000 nested
// Ifs (and deep loop and switch nests) emit on the test's ordinary thread.
// A variable written at the top and read at the bottom makes SSA lookup
// walk the whole dominator chain. spirv-val checks 250-deep nests (its
// structural checks grow faster than quadratically with depth and stop at
// 1,023 nested constructs), so the 100,000-deep module is
// checked by counting its constructs instead.
#include <catch2/catch.hpp>

#include "shader_fixture.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

enum class Nest { If, Loop, Switch };

// depth constructs, each inside the previous one's first sub-block; the
// innermost writes o from a variable set at the top.
void build_nest(testing::ShaderFixture& s, std::uint32_t depth, Nest kind) {
  VariableId v = s.local("v", s.i(7));
  std::vector<BlockId> merges;
  merges.reserve(depth);
  for (std::uint32_t d = 0; d < depth; ++d) {
    switch (kind) {
      case Nest::If: {
        IfBlocks branch = ok(s.b.branch_if(s.emit(Opcode::GreaterThan, {s.load(s.x), s.i(static_cast<int>(d % 5))}), false));
        merges.push_back(branch.merge);
        s.b.set_block(branch.true_block);
        break;
      }
      case Nest::Loop: {
        LoopBlocks loop = ok(s.b.branch_loop(false, false));
        s.b.set_block(loop.condition);
        s.terminate(Opcode::LoopIf, s.emit(Opcode::GreaterThan, {s.load(s.x), s.i(static_cast<int>(d % 5))}));
        merges.push_back(loop.merge);
        s.b.set_block(loop.body);
        break;
      }
      case Nest::Switch: {
        const SwitchCase cases[] = {{0u}, {std::nullopt}};
        SwitchBlocks sw = ok(s.b.branch_switch(s.load(s.x), cases));
        s.b.set_block(sw.cases[1]);
        s.terminate(Opcode::Break);
        merges.push_back(sw.merge);
        s.b.set_block(sw.cases[0]);
        break;
      }
    }
  }
  s.store(s.o, s.load(v));
  // Unwind: each level's sub-block ends, and each merge continues the outer level.
  const Opcode leave = kind == Nest::If ? Opcode::Merge : Opcode::Break;
  s.terminate(leave);
  for (std::size_t k = merges.size(); k-- > 0;) {
    s.b.set_block(merges[k]);
    if (k == 0) s.terminate(Opcode::Return);
    else s.terminate(leave);
  }
}

}  // namespace

TEST_CASE("100,000 nested Ifs emit without recursion") {
  testing::ShaderFixture s;
  build_nest(s, 100000, Nest::If);
  const auto words = spirv::emit(s.m);
  REQUIRE(words.ok());
  auto text = spirv::disassemble(*words, spirv::TargetEnv::Vulkan1_0);
  REQUIRE(text.ok());
  CHECK(testing::count_of(*text, "OpSelectionMerge") == 100000);
  CHECK(testing::count_of(*text, "OpVariable %_ptr_Function") == 0);
  // The innermost block reads the promoted variable's initial value.
  CHECK(testing::count_of(*text, "OpStore %o %int_7") == 1);
}

TEST_CASE("deep nests of every construct") {
  for (Nest kind : {Nest::If, Nest::Loop, Nest::Switch}) {
    testing::ShaderFixture deep;
    build_nest(deep, 20000, kind);
    const auto words = spirv::emit(deep.m);
    REQUIRE(words.ok());
    testing::ShaderFixture checked;
    build_nest(checked, 250, kind);
    checked.require_valid_ir();
    testing::emit_checked(checked.m);
  }
}
