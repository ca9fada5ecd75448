// eliminate-common-subexpressions: duplicates of pure instructions are removed where the first
// dominates; loads, siblings and different precisions are not merged.
#include <algorithm>

#include <catch2/catch.hpp>

#include "transform/passes.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using sluice::testing::must;

TEST_CASE("loads of memory the invocation may write are never merged") {
  testing::ShaderUnderTest s;
  const VariableId g = s.b.add_global({"g", NameSource::Internal}, predefined::kFloat, StorageClass::Private);
  auto x = must(s.b.load(g));
  must(s.b.store(g, predefined::kFloatOne));
  auto y = must(s.b.load(g));
  s.finish_scalar(must(s.b.emit(Opcode::Add, {x, y})));
  testing::require_valid(s.m);
  CHECK_FALSE(testing::run_passes(s.m, "eliminate-common-subexpressions"));
  CHECK(testing::count_instructions(s.m, Opcode::Load) == 2);
}

TEST_CASE("duplicates in one block and below a dominating block are merged, commutative ones too") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto y = s.input_x();  // a second Load of the input: inputs never change, so it is merged
  auto a = must(s.b.emit(Opcode::Add, {x, y}));
  auto b = must(s.b.emit(Opcode::Add, {y, x}));  // commuted duplicate
  auto ab = must(s.b.emit(Opcode::Mul, {a, b}));
  auto c = must(s.b.emit(Opcode::GreaterThan, {ab, predefined::kFloatZero}));
  auto blocks = must(s.b.branch_if(c, true, predefined::kFloat, Precision::High));
  s.b.set_block(blocks.true_block);
  auto a2 = must(s.b.emit(Opcode::Add, {x, y}));  // dominated by a
  auto again = must(s.b.emit(Opcode::Mul, {a2, a2}));  // same as ab once a2 is a
  must(s.b.terminate(Opcode::Merge, again));
  s.b.set_block(blocks.false_block);
  auto a3 = must(s.b.emit(Opcode::Add, {x, y}));
  must(s.b.terminate(Opcode::Merge, a3));
  s.b.set_block(blocks.merge);
  auto a4 = must(s.b.emit(Opcode::Add, {x, y}));
  auto sum = must(s.b.emit(Opcode::Add, {s.b.merge_input(blocks.merge), a4}));
  s.finish_scalar(sum);
  testing::require_valid(s.m);
  (void)b;

  CHECK(testing::run_passes(s.m, "eliminate-common-subexpressions"));
  CHECK(testing::count_instructions(s.m, Opcode::Load) == 1);
  CHECK(testing::count_instructions(s.m, Opcode::Add) == 2);  // a, and the final sum
  CHECK(testing::count_instructions(s.m, Opcode::Mul) == 1);
  CHECK(testing::count_instructions(s.m, Opcode::AccessVectorComponent) == 1);
  CHECK_FALSE(testing::run_passes(s.m, "eliminate-common-subexpressions"));
}

TEST_CASE("siblings do not dominate each other, different precisions stay apart") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto c = must(s.b.emit(Opcode::GreaterThan, {x, predefined::kFloatZero}));
  auto blocks = must(s.b.branch_if(c, true, predefined::kFloat, Precision::High));
  s.b.set_block(blocks.true_block);
  auto t = must(s.b.emit(Opcode::Sin, {x}));
  must(s.b.terminate(Opcode::Merge, t));
  s.b.set_block(blocks.false_block);
  auto e = must(s.b.emit(Opcode::Sin, {x}));
  must(s.b.terminate(Opcode::Merge, e));
  s.b.set_block(blocks.merge);
  auto medium = must(s.b.emit(Opcode::Cos, {x}, Precision::Medium));
  auto high = must(s.b.emit(Opcode::Cos, {x}, Precision::High));
  auto sum = must(s.b.emit(Opcode::Add, {medium, high}));
  s.finish_scalar(must(s.b.emit(Opcode::Add, {sum, s.b.merge_input(blocks.merge)})));
  testing::require_valid(s.m);
  CHECK_FALSE(testing::run_passes(s.m, "eliminate-common-subexpressions"));
  CHECK(testing::count_instructions(s.m, Opcode::Sin) == 2);
  CHECK(testing::count_instructions(s.m, Opcode::Cos) == 2);
}

TEST_CASE("a uniform or input load inside a loop merges with one before it, and reload-uniforms-in-loops loads it again") {
  // An input loaded before a loop and twice in its condition: one load is
  // left. NVIDIA's 580 driver draws a wrong picture for some loops that
  // compare with a load hoisted before them (docs/workarounds.md); its
  // workaround reload-uniforms-in-loops loads the value again in the
  // condition block, once for both uses.
  testing::ShaderUnderTest s;
  auto before = s.input_x();
  auto loop = must(s.b.branch_loop(false, false));
  s.b.set_block(loop.condition);
  auto in_loop = s.input_x();
  auto again = s.input_x();
  auto sum = must(s.b.emit(Opcode::Add, {in_loop, again}));
  must(s.b.terminate(Opcode::LoopIf, must(s.b.emit(Opcode::LessThan, {sum, before}))));
  s.b.set_block(loop.body);
  must(s.b.terminate(Opcode::Continue));
  s.b.set_block(loop.merge);
  s.finish_scalar(before);
  testing::require_valid(s.m);
  CHECK(testing::run_passes(s.m, "eliminate-common-subexpressions"));
  CHECK(testing::count_instructions(s.m, Opcode::Load) == 1);
  CHECK(testing::run_passes(s.m, "reload-uniforms-in-loops"));
  testing::require_valid(s.m);
  CHECK(testing::count_instructions(s.m, Opcode::Load) == 2);
  const auto& in_condition = s.m.function(s.m.entry_point()).block(loop.condition).instructions;
  CHECK(std::count_if(in_condition.begin(), in_condition.end(),
                      [](const Instruction& i) { return i.opcode == Opcode::Load; }) == 1);
  CHECK_FALSE(testing::run_passes(s.m, "reload-uniforms-in-loops"));
}
