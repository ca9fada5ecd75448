// Safe replace-all-uses (the Slang IR's "Best Practices") and the dealias
// pass built on it.
#include <catch2/catch.hpp>

#include "ir/operands.h"
#include "transform/passes.h"
#include "transform/substitution.h"
#include "transform/transformer.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::transform;
using sluice::testing::must;

TEST_CASE("replacements chain, and no use is left on a replaced register") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto a = must(s.b.emit(Opcode::Add, {x, x}));
  auto b = must(s.b.emit(Opcode::Mul, {a, a}));
  auto c = must(s.b.emit(Opcode::Sub, {b, a}));
  s.finish_scalar(c);

  Substitution subst;
  CHECK(subst.replace(a, x));  // a -> x
  CHECK(subst.replace(b, a));  // b -> a, which already stands for x
  CHECK(subst.resolve(b) == Operand(x));
  CHECK_FALSE(subst.replace(x, b));  // x -> b -> x would be a cycle: refused
  CHECK_FALSE(subst.replace(a, c));  // a register is replaced once
  CHECK(subst.size() == 2);

  // The sweep only overwrites operands in place: the instruction lists keep
  // their length while it runs.
  const std::size_t before = testing::count_all_instructions(s.m);
  const std::size_t rewritten = subst.apply(s.m);
  CHECK(testing::count_all_instructions(s.m) == before);
  CHECK(rewritten == 4);  // b's two operands, c's two
  std::vector<RegisterId> used;
  for (const Block& blk : s.m.function(s.main).blocks)
    for (const Instruction& inst : blk.instructions) for_each_register_use(inst, [&](RegisterId r) { used.push_back(r); });
  CHECK(std::count(used.begin(), used.end(), a) == 0);
  CHECK(std::count(used.begin(), used.end(), b) == 0);
}

TEST_CASE("a replacement made while walking does not disturb the walk") {
  // Each instruction replaces the one before it while transform_block walks
  // the block; the walk still visits every instruction exactly once,
  // because neither the replacement nor the sweep touches the list walked.
  testing::ShaderUnderTest s;
  RegisterId prev = s.input_x();
  std::vector<RegisterId> chain{prev};
  for (int i = 0; i < 50; ++i) {
    prev = must(s.b.emit(Opcode::Negate, {prev}));
    chain.push_back(prev);
  }
  s.finish_scalar(prev);
  Substitution subst;
  std::size_t visited = 0;
  auto r = transform_block(s.m, s.main, s.m.function(s.main).entry, [&](InstructionSite&, const Instruction& inst) -> Transforms {
    ++visited;
    if (inst.opcode != Opcode::Negate) return {};
    const Operand before = subst.resolve(inst.operands[0]);
    // -(-y) == y: the second Negate of each pair stands for the first one's operand.
    auto def = std::find(chain.begin(), chain.end(), inst.operands[0].as_register());
    if (def != chain.begin() && (def - chain.begin()) % 2 == 1) {
      const Instruction* first = nullptr;
      for (const Instruction& i2 : s.m.function(s.main).block(s.m.function(s.main).entry).instructions)
        if (i2.result == inst.operands[0].as_register()) first = &i2;
      if (first) {
        CHECK(subst.replace(inst.result, subst.resolve(first->operands[0])));
        return {Transform::remove()};
      }
    }
    (void)before;
    return {};
  });
  REQUIRE(r.ok());
  CHECK(visited == 2 + 50 + 3);  // access, load, the negates, construct, store, return
  subst.apply(s.m);
  CHECK(testing::count_instructions(s.m, Opcode::Negate) == 25);
  testing::require_valid(s.m);
}

TEST_CASE("dealias removes Alias chains and rewrites terminator operands") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto c = must(s.b.emit(Opcode::GreaterThan, {x, predefined::kFloatZero}));
  auto a1 = must(s.b.emit(Opcode::Alias, {c}));
  auto a2 = must(s.b.emit(Opcode::Alias, {a1}));
  auto blocks = must(s.b.branch_if(a2, true, predefined::kFloat, Precision::High));
  s.b.set_block(blocks.true_block);
  auto k = must(s.b.emit(Opcode::Alias, {predefined::kFloatOne}));
  must(s.b.terminate(Opcode::Merge, k));
  s.b.set_block(blocks.false_block);
  must(s.b.terminate(Opcode::Merge, x));
  s.b.set_block(blocks.merge);
  s.finish_scalar(s.b.merge_input(blocks.merge));
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "dealias"));
  CHECK(testing::count_instructions(s.m, Opcode::Alias) == 0);
  const Function& f = s.m.function(s.main);
  CHECK(f.block(f.entry).terminator()->operands[0] == Operand(c));
  CHECK(f.block(f.block(f.entry).if_true()).terminator()->operands[0] == Operand(predefined::kFloatOne));
  CHECK_FALSE(testing::run_passes(s.m, "dealias"));  // nothing left to do
}
