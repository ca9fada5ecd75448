// Unreachable-code elimination: code after a terminator. In the block tree
// that is a merge block nothing enters — an If whose branches all return, a
// loop nothing breaks out of — and everything chained after it. Such a merge
// block is emptied down to `Unreachable` (every divergent terminator keeps a
// merge block) and the rest of its chain is dropped.
//
// Algorithm: count the edges into every merge block (Merge, Break, a LoopIf
// that is not constant true, an If without else, NextBlock; Switch merges
// count as entered, conservatively). Then walk with for_each_block; in
// `after` — when a construct's sub-blocks are finished, so every drop inside
// them has already been subtracted — a construct whose merge block has no
// edge left loses its merge chain: the dropped blocks' own edges are
// subtracted (they may have been the only way out of an enclosing loop),
// each dropped block once. Linear.
#include "ir/traversal.h"
#include "ir/control_edges.h"
#include "transform/passes.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

class UnreachableCode {
 public:
  UnreachableCode(Module& m, FunctionId f)
      : m_(m), fid_(f), edges_(compute_control_edges(m.function(f))), incoming_(fn().blocks.size()),
        dropped_(fn().blocks.size()) {}

  bool run() {
    ir::visit(fn(), [&](const BlockVisit& v, const Block&) {
      for_each_edge(v.id, [&](BlockId target) { ++incoming_[target.index()]; });
      return VisitAction::VisitSubBlocks;
    });
    bool changed = false;
    for_each_block(
        m_, fid_, [](const BlockSite& site) { return site.block; },
        [&](const BlockSite& site) {
          if (drop_merge_if_unreachable(site.block)) changed = true;
          return site.block;
        });
    if (changed) compact_blocks(fn());
    return changed;
  }

 private:
  Function& fn() { return m_.function(fid_); }

  template <class F>
  void for_each_edge(BlockId b, F&& f) {
    const Block& blk = fn().block(b);
    const auto op = blk.terminator_opcode();
    if (!op) return;
    const BlockContext& c = edges_.context[b.index()];
    auto to = [&](BlockId target) {
      if (target.valid() && target.index() < incoming_.size()) f(target);
    };
    switch (*op) {
      case Opcode::Merge: to(c.merge_target); break;
      case Opcode::Break: to(c.break_target); break;
      case Opcode::LoopIf:
        if (constant_bool(m_, blk.terminator()->operands[0]) != true && c.loop.valid())
          to(fn().block(c.loop).merge);
        break;
      case Opcode::If:
        if (!blk.if_false().valid()) to(blk.merge);
        break;
      case Opcode::Switch:
      case Opcode::NextBlock: to(blk.merge); break;
      default: break;
    }
  }

  bool drop_merge_if_unreachable(BlockId x) {
    const Block& b = fn().block(x);
    const auto op = b.terminator_opcode();
    if (!op || !(*op == Opcode::If || is_loop(*op))) return false;
    const BlockId merge = b.merge;
    if (!merge.valid() || merge.index() >= incoming_.size() || incoming_[merge.index()] != 0) return false;
    const Block& mb = fn().block(merge);
    if (mb.instructions.size() == 1 && mb.instructions[0].opcode == Opcode::Unreachable && mb.declarations.empty() &&
        !mb.merge_input.valid())
      return false;
    // Subtract the edges of everything in the merge chain and below it.
    std::vector<BlockId> gone;
    collect_subtree(fn(), merge, dropped_, gone);
    for (BlockId d : gone) for_each_edge(d, [&](BlockId target) { --incoming_[target.index()]; });
    Block unreachable;
    unreachable.instructions.emplace_back();
    unreachable.instructions.back().opcode = Opcode::Unreachable;
    fn().block(merge) = std::move(unreachable);
    return true;
  }

  Module& m_;
  FunctionId fid_;
  ControlEdges edges_;
  std::vector<std::uint32_t> incoming_;
  std::vector<bool> dropped_;
};

}  // namespace

PassResult eliminate_unreachable_code(Module& m) {
  bool changed = false;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!m.function(FunctionId(i)).entry.valid()) continue;
    changed = UnreachableCode(m, FunctionId(i)).run() || changed;
  }
  return changed;
}

}  // namespace sluice::transform
