#include "ir/structure.h"

#include "ir/traversal.h"

namespace sluice::ir {

std::vector<BlockContext> compute_block_contexts(const Function& f) {
  std::vector<BlockContext> ctx(f.blocks.size());
  if (!f.entry.valid() || f.entry.index() >= f.blocks.size()) return ctx;
  ctx[f.entry.index()].chain_head = f.entry;
  visit(f, [&](const BlockVisit& v, const Block& b) {
    BlockContext& self = ctx[v.id.index()];
    self.reachable = true;
    self.kind = v.kind;
    self.depth = v.depth;
    const auto op = b.terminator_opcode();
    if (!op || !is_divergent(*op)) return VisitAction::VisitSubBlocks;
    auto in_range = [&](BlockId id) { return id.valid() && id.index() < ctx.size(); };
    if (in_range(b.merge)) {
      BlockContext& m = ctx[b.merge.index()];
      m = self;
      m.kind = BlockKind::Merge;
    }
    for (auto [sub, kind] : b.sub_blocks_with_kind()) {
      if (!in_range(sub)) continue;
      BlockContext c = self;
      c.construct = v.id;
      c.chain_head = sub;
      c.kind = kind;
      c.depth = v.depth + 1;
      if (*op == Opcode::If) c.merge_target = b.merge;
      if (is_loop(*op)) {
        c.break_target = b.merge;
        c.loop = v.id;
        c.breaks_from_switch = false;
        c.in_loop_continue = kind == BlockKind::LoopContinue;
      }
      if (*op == Opcode::Switch) {
        c.break_target = b.merge;
        c.breaks_from_switch = true;
      }
      ctx[sub.index()] = c;
    }
    return VisitAction::VisitSubBlocks;
  });
  return ctx;
}

const char* block_title(BlockKind kind) {
  switch (kind) {
    case BlockKind::FunctionEntry: return "Entry To Function:";
    case BlockKind::IfTrue: return "If True Block:";
    case BlockKind::IfFalse: return "If False Block:";
    case BlockKind::LoopCondition: return "Loop Condition:";
    case BlockKind::LoopBody: return "Loop Body:";
    case BlockKind::LoopContinue: return "Loop Continue Block:";
    case BlockKind::SwitchCase: return "Case:";
    case BlockKind::Merge: return "Merge Block:";
  }
  return "?";
}

}  // namespace sluice::ir
