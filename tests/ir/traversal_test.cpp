// visit(), for_each_function() and compute_block_contexts() on
// modules whose block ids the test knows from building them.
#include <catch2/catch.hpp>

#include "angle_example.h"
#include "ir/builder.h"
#include "ir/structure.h"
#include "ir/traversal.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::must;

namespace {

// main() { loop { cond; body: switch { case 1; default }; continue } if { } else { } return }
// with every block id recorded.
struct Built {
  Module m;
  FunctionId main;
  BlockId entry;
  LoopBlocks loop;
  SwitchBlocks sw;
  IfBlocks branch;
};

Built build() {
  Built t;
  Builder b(t.m);
  const VariableId i = b.add_global({"i", NameSource::Interface}, kInt, StorageClass::Input);
  t.main = b.begin_function({"main", NameSource::Internal}, kVoid);
  t.entry = b.block();
  t.loop = must(b.branch_loop(false, true));
  b.set_block(t.loop.condition);
  must(b.terminate(Opcode::LoopIf, kTrue));
  b.set_block(t.loop.body);
  const SwitchCase cases[] = {{1u}, {std::nullopt}};
  t.sw = must(b.branch_switch(must(b.load(i)), cases));
  b.set_block(t.sw.cases[0]);
  must(b.terminate(Opcode::Break));
  b.set_block(t.sw.cases[1]);
  must(b.terminate(Opcode::Continue));
  b.set_block(t.sw.merge);
  must(b.terminate(Opcode::Break));
  b.set_block(t.loop.continue_block);
  must(b.terminate(Opcode::Continue));
  b.set_block(t.loop.merge);
  t.branch = must(b.branch_if(kTrue));
  b.set_block(t.branch.true_block);
  must(b.terminate(Opcode::Merge));
  b.set_block(t.branch.false_block);
  must(b.terminate(Opcode::Merge));
  b.set_block(t.branch.merge);
  must(b.terminate(Opcode::Return));
  return t;
}

}  // namespace

TEST_CASE("visit is pre-order: a block, its sub-blocks with their chains, then its merge block") {
  const Built t = build();
  std::vector<BlockId> order;
  std::vector<std::uint32_t> depths;
  const bool finished = visit(t.m.function(t.main), [&](const BlockVisit& v, const Block&) {
    order.push_back(v.id);
    depths.push_back(v.depth);
    return VisitAction::VisitSubBlocks;
  });
  CHECK(finished);
  const std::vector<BlockId> expected = {t.entry,         t.loop.condition,    t.loop.body,
                                         t.sw.cases[0],   t.sw.cases[1],       t.sw.merge,
                                         t.loop.continue_block, t.loop.merge,  t.branch.true_block,
                                         t.branch.false_block,  t.branch.merge};
  CHECK(order == expected);
  CHECK(depths == std::vector<std::uint32_t>{0, 1, 1, 2, 2, 1, 1, 0, 1, 1, 0});
}

TEST_CASE("SkipToMergeBlock skips the sub-blocks and Stop ends the walk") {
  const Built t = build();
  const Function& f = t.m.function(t.main);
  std::vector<BlockId> order;
  visit(f, [&](const BlockVisit& v, const Block&) {
    order.push_back(v.id);
    return v.id == t.entry ? VisitAction::SkipToMergeBlock : VisitAction::VisitSubBlocks;
  });
  CHECK(order == std::vector<BlockId>{t.entry, t.loop.merge, t.branch.true_block, t.branch.false_block,
                                      t.branch.merge});
  order.clear();
  const bool finished = visit(f, [&](const BlockVisit& v, const Block&) {
    order.push_back(v.id);
    return v.id == t.sw.cases[0] ? VisitAction::Stop : VisitAction::VisitSubBlocks;
  });
  CHECK_FALSE(finished);
  CHECK(order == std::vector<BlockId>{t.entry, t.loop.condition, t.loop.body, t.sw.cases[0]});
}

TEST_CASE("for_each_function walks each function whose callback says so") {
  const Module m = testing::build_angle_example();
  Module two = m;
  Builder b(two);
  const FunctionId helper = b.begin_function({"helper", NameSource::Internal}, kVoid);
  must(b.terminate(Opcode::Return));
  std::vector<FunctionId> functions;
  std::size_t blocks = 0;
  for_each_function(
      two,
      [&](FunctionId id, const Function&) {
        functions.push_back(id);
        return true;
      },
      [&](const BlockVisit&, const Block&) {
        ++blocks;
        return VisitAction::VisitSubBlocks;
      });
  CHECK(functions == std::vector<FunctionId>{FunctionId(0), helper});
  // Every block the builder made for the ANGLE example's main is in its tree; helper has one.
  CHECK(blocks == two.function(FunctionId(0)).blocks.size() + 1);
  blocks = 0;
  for_each_function(
      two, [&](FunctionId id, const Function&) { return id == helper; },
      [&](const BlockVisit&, const Block&) {
        ++blocks;
        return VisitAction::VisitSubBlocks;
      });
  CHECK(blocks == 1);
}

TEST_CASE("block contexts name each block's construct and jump targets") {
  const Built t = build();
  const auto ctx = compute_block_contexts(t.m.function(t.main));
  const BlockContext& body = ctx[t.loop.body.index()];
  CHECK(body.reachable);
  CHECK(body.kind == BlockKind::LoopBody);
  CHECK(body.construct == t.entry);
  CHECK(body.loop == t.entry);
  CHECK(body.break_target == t.loop.merge);
  CHECK_FALSE(body.breaks_from_switch);
  CHECK(ctx[t.loop.continue_block.index()].in_continue);
  CHECK_FALSE(ctx[t.loop.condition.index()].in_continue);

  // Inside the switch, Break leaves the switch; Continue still targets the loop.
  const BlockContext& case1 = ctx[t.sw.cases[0].index()];
  CHECK(case1.kind == BlockKind::SwitchCase);
  CHECK(case1.construct == t.loop.body);
  CHECK(case1.break_target == t.sw.merge);
  CHECK(case1.breaks_from_switch);
  CHECK(case1.loop == t.entry);
  CHECK(case1.depth == 2);

  // The switch's merge block continues the loop body's chain.
  const BlockContext& sw_merge = ctx[t.sw.merge.index()];
  CHECK(sw_merge.kind == BlockKind::Merge);
  CHECK(sw_merge.chain_head == t.loop.body);
  CHECK(sw_merge.break_target == t.loop.merge);

  const BlockContext& if_true = ctx[t.branch.true_block.index()];
  CHECK(if_true.merge_target == t.branch.merge);
  CHECK_FALSE(if_true.loop.valid());
  CHECK_FALSE(if_true.break_target.valid());
  CHECK(ctx[t.branch.merge.index()].chain_head == t.entry);
  CHECK(ctx[t.entry.index()].kind == BlockKind::FunctionEntry);
}
