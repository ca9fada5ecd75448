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

  CHECK(testing::run_passes(t.m, "inline-functions"));
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
  testing::run_passes(t.m, "dealias,eliminate-dead-code");
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
  CHECK_FALSE(testing::run_passes(t.m, "inline-functions"));
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

namespace {

// f_0(x) = x * 2; f_k(x) = f_{k-1}(f_{k-1}(x)); main stores f_n(v).
// Inlining everything would make 2^n copies of f_0 (issue 16's doubling
// program, as IR).
Module doubling_chain(std::size_t n) {
  Module m{ShaderStage::Fragment};
  Builder b{m};
  Decorations loc0;
  loc0.location = 0;
  const VariableId color =
      b.add_global({"color", NameSource::Interface}, predefined::kFloat, StorageClass::Output, Precision::High, loc0);
  const VariableId input =
      b.add_global({"v", NameSource::Interface}, predefined::kFloat, StorageClass::Input, Precision::High, loc0);
  FunctionId previous;
  for (std::size_t k = 0; k <= n; ++k) {
    const FunctionId f = b.begin_function({"f" + std::to_string(k), NameSource::Internal}, predefined::kFloat,
                                          Precision::High);
    const VariableId x =
        b.add_parameter(f, {"x", NameSource::Internal}, predefined::kFloat, ParamDirection::In, Precision::High);
    auto xv = must(b.load(x));
    if (k == 0) {
      must(b.terminate(Opcode::Return, must(b.emit(Opcode::Mul, {xv, m.float_constant(2)}))));
    } else {
      auto once = must(b.emit(Opcode::Call, {previous, xv}));
      must(b.terminate(Opcode::Return, must(b.emit(Opcode::Call, {previous, once}))));
    }
    previous = f;
  }
  b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  must(b.store(color, must(b.emit(Opcode::Call, {previous, must(b.load(input))}))));
  must(b.terminate(Opcode::Return));
  return m;
}

std::size_t total_instructions(const Module& m) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const Function& f = m.function(FunctionId(i));
    if (f.entry.valid()) visit(f, [&](const BlockVisit&, const Block& blk) {
        n += blk.instructions.size();
        return VisitAction::VisitSubBlocks;
      });
  }
  return n;
}

}  // namespace

TEST_CASE("inlining a doubling chain stays within the module budget") {
  // 40 levels: 2^40 copies unbounded. The budget is fixed before any copy:
  // max(4 * before, before + 50,000) instructions.
  Module m = doubling_chain(40);
  testing::require_valid(m);
  const std::size_t before = total_instructions(m);
  CHECK(testing::run_passes(m, "inline-functions"));
  const std::size_t after = total_instructions(m);
  CHECK(after > before);
  // simplify-control-flow (inside the pass) only removes instructions, so the
  // inliner's own count bounds what is left.
  CHECK(after <= std::max(4 * before, before + 50'000));
  // The calls left are the ones past the budget.
  CHECK(testing::count_instructions(m, Opcode::Call) > 0);
}

TEST_CASE("the module budget at its limit and just past it") {
  // f_1 calls f_0 twice; each inlined call costs f_0's size (Load, Mul,
  // Return = 3) + 3 per parameter + 3 for the wrapper = 9 instructions.
  const std::size_t cost = 9;
  for (const std::size_t slack : {2 * cost, 2 * cost - 1, cost, cost - 1}) {
    Module m = doubling_chain(1);
    const std::size_t calls_before = testing::count_instructions(m, Opcode::Call);
    transform::InlineOptions o;
    o.max_module_growth = 1;
    o.module_growth_slack = slack;
    auto r = transform::inline_functions(m, o);
    REQUIRE(r.ok());
    testing::require_valid(m);
    INFO("slack " << slack);
    // Exactly slack / cost calls fit (main's call of f_1 costs more).
    CHECK(testing::count_instructions(m, Opcode::Call) == calls_before - slack / cost);
  }
}

TEST_CASE("the absolute module cap bounds every run, even repeated") {
  Module m = doubling_chain(30);
  transform::InlineOptions o;
  o.max_module_instructions = 5'000;
  for (int round = 0; round < 4; ++round) REQUIRE(transform::inline_functions(m, o).ok());
  testing::require_valid(m);
  CHECK(total_instructions(m) <= 5'000);
}
