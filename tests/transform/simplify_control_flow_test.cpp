// simplify-control-flow: constant Ifs, loops that run their body once or never, and
// NextBlock chains.
#include <catch2/catch.hpp>

#include "transform/passes.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using sluice::testing::must;

namespace {

// The value main() stores to `color` (operand of the last Store to it).
Operand stored_value(const testing::ShaderUnderTest& s) {
  Operand v;
  for (const Block& b : s.m.function(s.main).blocks)
    for (const Instruction& inst : b.instructions)
      if (inst.opcode == Opcode::Store && inst.operands[0] == Operand(s.color)) v = inst.operands[1];
  return v;
}

std::size_t reachable_blocks(const Module& m, FunctionId f) {
  std::size_t n = 0;
  visit(m.function(f), [&](const BlockVisit&, const Block&) {
    ++n;
    return VisitAction::VisitSubBlocks;
  });
  return n;
}

}  // namespace

TEST_CASE("If on a constant becomes its chosen branch, the merge input becomes the branch's value") {
  const bool condition = GENERATE(true, false);
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto blocks = must(s.b.branch_if(s.m.bool_constant(condition), true, predefined::kFloat, Precision::High));
  s.b.set_block(blocks.true_block);
  auto doubled = must(s.b.emit(Opcode::Add, {x, x}));
  must(s.b.terminate(Opcode::Merge, doubled));
  s.b.set_block(blocks.false_block);
  must(s.b.terminate(Opcode::Merge, predefined::kFloatOne));
  s.b.set_block(blocks.merge);
  s.finish_scalar(s.b.merge_input(blocks.merge));
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "simplify-control-flow"));
  CHECK(testing::count_instructions(s.m, Opcode::If) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::NextBlock) == 0);
  CHECK(reachable_blocks(s.m, s.main) == 1);
  // The splat stores what the chosen branch merged.
  const Function& f = s.m.function(s.main);
  const Instruction* splat = nullptr;
  for (const Instruction& inst : f.block(f.entry).instructions)
    if (inst.opcode == Opcode::ConstructVectorFromScalar) splat = &inst;
  REQUIRE(splat);
  CHECK(splat->operands[0] == (condition ? Operand(doubled) : Operand(predefined::kFloatOne)));
  CHECK(stored_value(s).is_register());
}

TEST_CASE("If false without else disappears, a branch that never merges drops the merge chain") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto skip = must(s.b.branch_if(predefined::kFalse, false));
  s.b.set_block(skip.true_block);
  must(s.b.terminate(Opcode::Discard));
  s.b.set_block(skip.merge);
  auto taken = must(s.b.branch_if(predefined::kTrue, true));
  s.b.set_block(taken.true_block);
  s.finish_scalar(x);  // returns
  s.b.set_block(taken.false_block);
  must(s.b.terminate(Opcode::Merge));
  s.b.set_block(taken.merge);
  must(s.b.store(s.color, must(s.b.load(s.input))));  // unreachable once the If is gone
  must(s.b.terminate(Opcode::Return));
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "simplify-control-flow"));
  CHECK(testing::count_instructions(s.m, Opcode::If) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Discard) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Store) == 1);
  CHECK(reachable_blocks(s.m, s.main) == 1);
}

TEST_CASE("a Loop whose condition is constant false disappears") {
  testing::ShaderUnderTest s;
  auto loop = must(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  must(s.b.terminate(Opcode::LoopIf, predefined::kFalse));
  s.b.set_block(loop.body);
  must(s.b.store(s.color, must(s.b.load(s.input))));
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(loop.continue_block);
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(loop.merge);
  s.finish_scalar(predefined::kFloatOne);
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "simplify-control-flow"));
  CHECK(testing::count_instructions(s.m, Opcode::Loop) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Load) == 0);  // the body went with it
  CHECK(reachable_blocks(s.m, s.main) == 1);
}

TEST_CASE("a DoLoop with a constant false condition and no continue statement runs its body once") {
  testing::ShaderUnderTest s;
  auto loop = must(s.b.branch_loop(true, true));
  s.b.set_block(loop.body);
  auto v = must(s.b.load(s.input));
  must(s.b.store(s.color, v));
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(loop.continue_block);
  must(s.b.store(s.color, must(s.b.load(s.input))));
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(loop.condition);
  must(s.b.terminate(Opcode::LoopIf, predefined::kFalse));
  s.b.set_block(loop.merge);
  must(s.b.terminate(Opcode::Return));
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "simplify-control-flow"));
  CHECK(testing::count_instructions(s.m, Opcode::DoLoop) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Store) == 2);  // body, then continue block, once each
  CHECK(reachable_blocks(s.m, s.main) == 1);
}

TEST_CASE("a DoLoop left only by the Break closing its body becomes that body, Break's value feeds the input") {
  testing::ShaderUnderTest s;
  auto loop = must(s.b.branch_loop(true, false, predefined::kFloat, Precision::High));
  s.b.set_block(loop.body);
  auto x = s.input_x();
  must(s.b.terminate(Opcode::Break, x));
  s.b.set_block(loop.condition);
  must(s.b.terminate(Opcode::LoopIf, predefined::kTrue));
  s.b.set_block(loop.merge);
  s.finish_scalar(s.b.merge_input(loop.merge));
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "simplify-control-flow"));
  CHECK(testing::count_instructions(s.m, Opcode::DoLoop) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Break) == 0);
  CHECK(reachable_blocks(s.m, s.main) == 1);
}

TEST_CASE("a DoLoop that continues from inside its body stays a loop") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto c = must(s.b.emit(Opcode::GreaterThan, {x, predefined::kFloatZero}));
  auto loop = must(s.b.branch_loop(true));
  s.b.set_block(loop.body);
  auto inner = must(s.b.branch_if(c, false));
  s.b.set_block(inner.true_block);
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(inner.merge);
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(loop.condition);
  must(s.b.terminate(Opcode::LoopIf, predefined::kFalse));
  s.b.set_block(loop.merge);
  s.finish_scalar(x);
  testing::require_valid(s.m);
  testing::run_passes(s.m, "simplify-control-flow");
  CHECK(testing::count_instructions(s.m, Opcode::DoLoop) == 1);
}

TEST_CASE("chains of NextBlock are stitched into one block") {
  testing::ShaderUnderTest s;
  constexpr int kLinks = 1000;
  for (int i = 0; i < kLinks; ++i) {
    Variable local;
    s.b.declare_local({"t", NameSource::Temporary}, predefined::kFloat);
    s.b.set_block(must(s.b.next_block()));
  }
  s.finish_scalar(s.input_x());
  testing::require_valid(s.m);
  CHECK(reachable_blocks(s.m, s.main) == kLinks + 1);
  CHECK(testing::run_passes(s.m, "simplify-control-flow"));
  CHECK(reachable_blocks(s.m, s.main) == 1);
  CHECK(s.m.function(s.main).blocks.size() == 1);
  CHECK(s.m.function(s.main).block(s.m.function(s.main).entry).declarations.size() == kLinks);
  CHECK_FALSE(testing::run_passes(s.m, "simplify-control-flow"));
}
