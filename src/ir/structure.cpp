// The scope model; structure.h gives the algorithm, docs/ir.md the rules.
#include "ir/structure.h"

namespace sluice::ir {
namespace {

// The context of a sub-block `sub` (slot `slot`, of kind `kind`) of the
// divergent block `id`, whose own context is `parent`.
BlockContext sub_context(const BlockContext& parent, BlockId id, const Block& b, Opcode op, BlockId sub,
                         BlockKind kind, std::uint32_t slot) {
  BlockContext c = parent;
  c.kind = kind;
  c.depth = parent.depth + 1;
  c.construct = id;
  c.chain_head = sub;
  c.chain_kind = kind;
  c.case_index = kind == BlockKind::SwitchCase ? slot : 0;
  c.merge_target = op == Opcode::If ? b.merge : BlockId{};
  if (is_loop(op)) {
    c.break_target = b.merge;
    c.breaks_from_switch = false;
    c.loop = id;
    c.loop_part = kind;
    c.in_continue = kind == BlockKind::LoopContinue;
    c.in_any_continue = parent.in_any_continue || c.in_continue;
    c.in_continue_construct = c.in_continue || (op == Opcode::DoLoop && kind == BlockKind::LoopCondition);
    c.in_any_continue_construct = parent.in_any_continue_construct || c.in_continue_construct;
  } else if (op == Opcode::Switch) {
    c.break_target = b.merge;
    c.breaks_from_switch = true;
  }
  return c;
}

}  // namespace

std::vector<BlockContext> compute_block_contexts(const Function& f) {
  std::vector<BlockContext> ctx(f.blocks.size());
  struct Item {
    BlockId id;
    BlockContext context;
  };
  std::vector<Item> stack;
  auto usable = [&](BlockId id) { return id.valid() && id.index() < ctx.size() && !ctx[id.index()].reachable; };
  if (usable(f.entry)) {
    BlockContext entry;
    entry.chain_head = f.entry;
    stack.push_back({f.entry, entry});
  }
  while (!stack.empty()) {
    Item item = std::move(stack.back());
    stack.pop_back();
    if (!usable(item.id)) continue;  // reached before: the first arrival's context stays
    BlockContext& self = ctx[item.id.index()];
    self = item.context;
    self.reachable = true;
    const Block& b = f.block(item.id);
    const auto op = b.terminator_opcode();
    if (!op || !is_divergent(*op)) continue;
    // Pushed in reverse: sub-blocks in slot order, each with its whole
    // merge chain, then this block's merge block.
    BlockContext merge = self;
    merge.kind = BlockKind::Merge;
    stack.push_back({b.merge, merge});
    auto push = [&](BlockId sub, BlockKind kind, std::uint32_t slot) {
      if (usable(sub)) stack.push_back({sub, sub_context(self, item.id, b, *op, sub, kind, slot)});
    };
    if (*op == Opcode::If) {
      push(b.if_false(), BlockKind::IfFalse, 1);
      push(b.if_true(), BlockKind::IfTrue, 0);
    } else if (is_loop(*op)) {
      push(b.loop_continue(), BlockKind::LoopContinue, 2);
      push(b.loop_body(), BlockKind::LoopBody, 1);
      push(b.loop_condition(), BlockKind::LoopCondition, 0);
    } else if (*op == Opcode::Switch) {
      for (std::size_t i = b.case_blocks.size(); i-- > 0;)
        push(b.case_blocks[i], BlockKind::SwitchCase, static_cast<std::uint32_t>(i));
    }
  }
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

std::optional<bool> constant_bool(const Module& m, Operand op) {
  if (!op.is_constant() || op.value() >= m.constant_count()) return std::nullopt;
  const Constant& c = m.constant(op.as_constant());
  if (c.type != predefined::kBool || c.spec_id || c.is_composite()) return std::nullopt;
  return c.as_bool();
}

BlockId chain_end(const Function& f, BlockId head) {
  BlockId b = head;
  while (f.block(b).merge.valid()) b = f.block(b).merge;
  return b;
}

bool only_merges(const Function& f, BlockId b) {
  if (!b.valid() || b.index() >= f.blocks.size()) return false;
  const Block& block = f.block(b);
  return block.declarations.empty() && !block.merge_input.valid() && block.instructions.size() == 1 &&
         block.instructions[0].opcode == Opcode::Merge;
}

}  // namespace sluice::ir
