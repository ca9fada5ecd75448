// inline: calls replaced by the callee's body, in/out/inout copied, the
// call's register kept through an Alias.
#include <catch2/catch.hpp>

#include "transform/passes.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using sluice::testing::must;

namespace {

struct CallTest {
  Module m{ShaderStage::Fragment};
  Builder b{m};
  VariableId color;
  FunctionId callee;
  FunctionId main;
};

// float f(in float a, out float o, inout float io) {
//   o = a * 2; io = io + a;
//   if (a > 0) return a;     (only when early_return)
//   return io;
// }
// main: t = 1; r = f(v, u, t); color = r + u + t
CallTest build(bool early_return) {
  CallTest t;
  Builder& b = t.b;
  Decorations loc0;
  loc0.location = 0;
  t.color = b.add_global({"color", NameSource::Interface}, predefined::kFloat, StorageClass::Output, Precision::High, loc0);
  const VariableId input =
      b.add_global({"v", NameSource::Interface}, predefined::kFloat, StorageClass::Input, Precision::High, loc0);

  t.callee = b.begin_function({"f", NameSource::Internal}, predefined::kFloat, Precision::High);
  const VariableId a = b.add_parameter(t.callee, {"a", NameSource::Internal}, predefined::kFloat, ParamDirection::In, Precision::High);
  const VariableId o = b.add_parameter(t.callee, {"o", NameSource::Internal}, predefined::kFloat, ParamDirection::Out, Precision::High);
  const VariableId io = b.add_parameter(t.callee, {"io", NameSource::Internal}, predefined::kFloat, ParamDirection::InOut, Precision::High);
  auto av = must(b.load(a));
  must(b.store(o, must(b.emit(Opcode::Mul, {av, t.m.float_constant(2)}))));
  must(b.store(io, must(b.emit(Opcode::Add, {must(b.load(io)), av}))));
  if (early_return) {
    auto c = must(b.emit(Opcode::GreaterThan, {av, predefined::kFloatZero}));
    auto blocks = must(b.branch_if(c, false));
    b.set_block(blocks.true_block);
    must(b.terminate(Opcode::Return, av));
    b.set_block(blocks.merge);
  }
  must(b.terminate(Opcode::Return, must(b.load(io))));

  t.main = b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  const VariableId u = b.declare_local({"u", NameSource::Temporary}, predefined::kFloat, Precision::High);
  const VariableId tt = b.declare_local({"t", NameSource::Temporary}, predefined::kFloat, Precision::High, predefined::kFloatOne);
  auto r = must(b.emit(Opcode::Call, {t.callee, must(b.load(input)), u, tt}));
  auto sum = must(b.emit(Opcode::Add, {r, must(b.load(u))}));
  must(b.store(t.color, must(b.emit(Opcode::Add, {sum, must(b.load(tt))}))));
  must(b.terminate(Opcode::Return));
  return t;
}

}  // namespace

TEST_CASE("inlining copies in and out and keeps the call's register") {
  const bool early_return = GENERATE(false, true);
  CallTest t = build(early_return);
  testing::require_valid(t.m);
  const std::size_t stores_in_callee = 2;

  CHECK(testing::run_passes(t.m, "inline"));
  const Function& main = t.m.function(t.main);
  std::size_t calls = 0, stores = 0, loads = 0;
  visit(main, [&](const BlockVisit&, const Block& blk) {
    for (const Instruction& inst : blk.instructions) {
      calls += inst.opcode == Opcode::Call;
      stores += inst.opcode == Opcode::Store;
      loads += inst.opcode == Opcode::Load;
    }
    return VisitAction::VisitSubBlocks;
  });
  CHECK(calls == 0);
  // 1 final store + the callee's 2 + copy-in of a and io + copy-back of o and io.
  CHECK(stores == 1 + stores_in_callee + 2 + 2);
  // The callee's parameters were copied: main declares three more variables.
  std::size_t declared = 0;
  visit(main, [&](const BlockVisit&, const Block& blk) {
    declared += blk.declarations.size();
    return VisitAction::VisitSubBlocks;
  });
  CHECK(declared == 2 + 3);
  // The DoLoop wrapper stays only when the callee returns early.
  CHECK(testing::count_instructions(t.m, Opcode::DoLoop) == (early_return ? 1u : 0u));
  (void)loads;

  // Everything else cleans up: the callee is no longer called.
  testing::run_passes(t.m, "dealias,dce");
  CHECK(t.m.function_count() == 1);
}

TEST_CASE("functions that return from inside a loop are not inlined") {
  CallTest t;
  Builder& b = t.b;
  t.callee = b.begin_function({"g", NameSource::Internal}, predefined::kFloat);
  auto loop = must(b.branch_loop());
  b.set_block(loop.condition);
  must(b.terminate(Opcode::LoopIf, predefined::kTrue));
  b.set_block(loop.body);
  must(b.terminate(Opcode::Return, predefined::kFloatOne));
  b.set_block(loop.merge);
  must(b.terminate(Opcode::Unreachable));
  Decorations loc0;
  loc0.location = 0;
  t.color = b.add_global({"color", NameSource::Interface}, predefined::kFloat, StorageClass::Output, Precision::High, loc0);
  t.main = b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  must(b.store(t.color, must(b.emit(Opcode::Call, {t.callee}))));
  must(b.terminate(Opcode::Return));
  testing::require_valid(t.m);
  CHECK_FALSE(testing::run_passes(t.m, "inline"));
  CHECK(testing::count_instructions(t.m, Opcode::Call) == 1);
}

TEST_CASE("recursive calls are never inlined (and the pass ends)") {
  // Recursion is invalid IR, so this runs the pass without the validator.
  CallTest t;
  Builder& b = t.b;
  const FunctionId f = b.begin_function({"f", NameSource::Internal}, predefined::kVoid);
  const FunctionId g = b.begin_function({"g", NameSource::Internal}, predefined::kVoid);
  b.set_function(f);
  b.set_block(t.m.function(f).entry);
  must(b.emit(Opcode::Call, {g}));
  must(b.terminate(Opcode::Return));
  b.set_function(g);
  b.set_block(t.m.function(g).entry);
  must(b.emit(Opcode::Call, {f}));
  must(b.terminate(Opcode::Return));
  t.main = b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  must(b.emit(Opcode::Call, {f}));
  must(b.terminate(Opcode::Return));
  auto r = transform::inline_functions(t.m);
  REQUIRE(r.ok());
  CHECK(testing::count_instructions(t.m, Opcode::Call) == 3);
}

TEST_CASE("the inline budget bounds growth") {
  CallTest t = build(false);
  transform::InlineOptions small;
  small.max_function_instructions = 3;
  auto r = transform::inline_functions(t.m, small);
  REQUIRE(r.ok());
  CHECK_FALSE(*r);
  CHECK(testing::count_instructions(t.m, Opcode::Call) == 1);
}
