// The scope model (ir/structure.h, docs/ir.md "Scopes: where a jump goes")
// on the trees where the copies it replaced disagreed: an If's merge block
// inside a nested loop, "in continue" inside a loop nested in a continue
// chain, and a DoLoop's condition (SPIR-V's continue construct).
#include <catch2/catch.hpp>

#include "ir/structure.h"
#include "ir/scope_shapes.h"

namespace sluice {
namespace {

namespace shapes = testing::scope_shapes;

using ir::BlockId;
using ir::BlockKind;
using ir::Opcode;

// The blocks of f ending with `op`, in id order.
std::vector<BlockId> ending_with(const ir::Function& f, Opcode op) {
  std::vector<BlockId> out;
  for (std::uint32_t i = 0; i < f.blocks.size(); ++i)
    if (f.blocks[i].terminator_opcode() == op) out.push_back(BlockId(i));
  return out;
}

TEST_CASE("an If's merge block is not visible inside a loop nested in it", "[ir][scopes]") {
  const ir::Module m = shapes::parse(shapes::kLoopInIf);
  const ir::Function& f = m.function(ir::FunctionId(0));
  const auto ctx = ir::compute_block_contexts(f);
  const BlockId if_block = ending_with(f, Opcode::If).at(0);
  const BlockId loop = ending_with(f, Opcode::Loop).at(0);
  const BlockId body = ending_with(f, Opcode::Break).at(0);
  const BlockId loop_merge = ending_with(f, Opcode::Merge).at(0);
  REQUIRE(f.block(loop).loop_body() == body);
  REQUIRE(f.block(loop).merge == loop_merge);

  const ir::BlockContext& b = ctx[body.index()];
  CHECK_FALSE(b.merge_target.valid());  // the copy in structure.cpp gave the If's merge block here
  CHECK(b.break_target == loop_merge);
  CHECK(b.loop == loop);
  CHECK(b.loop_part == BlockKind::LoopBody);
  CHECK(b.chain_kind == BlockKind::LoopBody);
  CHECK_FALSE(b.breaks_from_switch);

  const ir::BlockContext& lm = ctx[loop_merge.index()];
  CHECK(lm.kind == BlockKind::Merge);
  CHECK(lm.chain_kind == BlockKind::IfTrue);
  CHECK(lm.merge_target == f.block(if_block).merge);
  CHECK_FALSE(lm.break_target.valid());
  CHECK_FALSE(lm.loop.valid());
}

TEST_CASE("'in continue' is per loop: 'in any continue' holds in nested loops", "[ir][scopes]") {
  const ir::Module m = shapes::parse(shapes::kLoopInContinue);
  const ir::Function& f = m.function(ir::FunctionId(0));
  const auto ctx = ir::compute_block_contexts(f);
  const std::vector<BlockId> loops = ending_with(f, Opcode::Loop);
  REQUIRE(loops.size() == 2);
  const BlockId outer = loops[0], inner = loops[1];
  REQUIRE(f.block(outer).loop_continue() == inner);
  const BlockId inner_body = f.block(inner).loop_body();
  const BlockId inner_merge = f.block(inner).merge;

  const ir::BlockContext& c = ctx[inner.index()];  // the outer loop's continue block
  CHECK(c.in_continue);
  CHECK(c.in_any_continue);
  CHECK(c.in_continue_construct);
  CHECK(c.break_forbidden());

  const ir::BlockContext& b = ctx[inner_body.index()];
  CHECK(b.loop == inner);
  CHECK_FALSE(b.in_continue);  // the validator's copy kept it set: Break out of the inner loop looked forbidden
  CHECK(b.in_any_continue);    // structure.cpp's copy had no such flag: Return here is still forbidden
  CHECK_FALSE(b.in_continue_construct);
  CHECK(b.in_any_continue_construct);
  CHECK_FALSE(b.break_forbidden());
  CHECK(b.break_target == inner_merge);

  const ir::BlockContext& im = ctx[inner_merge.index()];  // back in the outer loop's continue chain
  CHECK(im.loop == outer);
  CHECK(im.in_continue);
  CHECK(im.chain_kind == BlockKind::LoopContinue);
  CHECK(im.break_forbidden());
  CHECK_FALSE(ctx[f.block(outer).loop_body().index()].in_any_continue);
}

TEST_CASE("a DoLoop's condition is in SPIR-V's continue construct, not in a continue chain", "[ir][scopes]") {
  const ir::Module m = shapes::parse(shapes::kDoLoopConditionBreak);
  const ir::Function& f = m.function(ir::FunctionId(0));
  const auto ctx = ir::compute_block_contexts(f);
  const BlockId loop = ending_with(f, Opcode::DoLoop).at(0);
  const BlockId brk = ending_with(f, Opcode::Break).at(0);
  const ir::BlockContext& b = ctx[brk.index()];
  CHECK(b.loop == loop);
  CHECK(b.loop_part == BlockKind::LoopCondition);
  CHECK(b.chain_kind == BlockKind::IfTrue);
  CHECK_FALSE(b.in_continue);
  CHECK_FALSE(b.break_forbidden());
  CHECK(b.in_continue_construct);
  CHECK(b.in_any_continue_construct);
  const ir::BlockContext& body = ctx[f.block(loop).loop_body().index()];
  CHECK_FALSE(body.in_continue_construct);
  CHECK(body.loop_part == BlockKind::LoopBody);
}

TEST_CASE("constant_bool reads only plain bool constants", "[ir][scopes]") {
  ir::Module m(ir::ShaderStage::Fragment);
  CHECK(ir::constant_bool(m, ir::Operand(ir::predefined::kTrue)) == true);
  CHECK(ir::constant_bool(m, ir::Operand(ir::predefined::kFalse)) == false);
  CHECK_FALSE(ir::constant_bool(m, ir::Operand(ir::predefined::kFloatOne)).has_value());
  CHECK_FALSE(ir::constant_bool(m, ir::Operand(ir::ConstantId(1000))).has_value());
}

}  // namespace
}  // namespace sluice
