// Control-flow simplification (ANGLE's builder folds constant Ifs as it
// goes; this pass does it for IR from any source, e.g. after folding):
//   If c_true / c_false        -> NextBlock into the chosen branch, whose
//                                 closing `Merge v` becomes NextBlock into
//                                 the old merge block (uses of the merge
//                                 input become v). If the branch never
//                                 merges, the old merge chain is dropped.
//   Loop whose condition block ends `LoopIf false`
//                              -> the condition block once, then the merge.
//   DoLoop that nothing continues, left only by a Break closing its body
//                              -> the body once (Break v feeds the input).
//   DoLoop whose condition block ends `LoopIf false`, continued only at the
//   end of its body, never broken out of
//                              -> body, continue block, condition once.
//   Switch on a constant       -> NextBlock into the case it selects (the
//                                 default when no label matches; the merge
//                                 block when there is neither), whose
//                                 closing `Break v` becomes NextBlock into
//                                 the old merge block. Not when that case
//                                 falls through (Passthrough) or another
//                                 Break to the switch sits below a case's
//                                 top-level chain.
//   NextBlock                  -> the merge block is appended to the block
//                                 (chains stitched into one block).
// A rewrite is made only when every jump to the construct sits where the
// rewrite can retarget it: a Merge or Break nested deeper (inside a loop in
// the chosen branch, say) leaves the construct as it is.
//
// Algorithm: compute_control_edges() once per function, then one pre-order
// for_each_block walk; at each block the rules are applied until none fits
// (each rewrite removes a construct or a link, so this terminates). A
// construct's jumps sit inside it, so they are still as computed when the
// walk reaches it; when a block absorbs its merge block, the jumps filed
// under the absorbed block move with it. Uses of dropped merge inputs are
// rewritten in one Substitution sweep at the end, and unreachable blocks are
// compacted away. Linear.
#include <algorithm>

#include "ir/control_edges.h"
#include "transform/passes.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

class Simplifier {
 public:
  Simplifier(Module& m, FunctionId f) : m_(m), fid_(f), edges_(compute_control_edges(m.function(f))) {}

  bool run() {
    bool changed = false;
    for_each_block(
        m_, fid_,
        [&](const BlockSite& site) {
          while (simplify(site.block)) changed = true;
          return site.block;
        },
        [](const BlockSite& site) { return site.block; });
    if (changed) {
      subst_.apply(fn());
      compact_blocks(fn());
    }
    return changed;
  }

 private:
  Function& fn() { return m_.function(fid_); }
  Block& block(BlockId b) { return fn().block(b); }

  // `b`'s terminator becomes NextBlock into `next`; its sub-blocks are dropped.
  void next_block(BlockId b, BlockId next) {
    Block& x = block(b);
    Block discarded;
    move_structure(x, discarded);
    x.instructions.back() = Instruction{};
    x.instructions.back().opcode = Opcode::NextBlock;
    x.merge = next;
  }

  std::optional<bool> constant_operand(BlockId b) {
    const Instruction* t = block(b).terminator();
    if (!t || t->operands.empty()) return std::nullopt;
    return constant_bool(m_, t->operands[0]);
  }

  // A block that ends with `op` and has no sub-blocks.
  bool simple_block_ending(BlockId b, Opcode op) {
    if (!b.valid()) return false;
    const auto t = block(b).terminator_opcode();
    return t && *t == op;
  }

  // The one exit in `chain`'s top-level spine, if every exit of `construct`
  // is either there or (when `dropped` is valid) in the dropped chain.
  // nullopt when some exit is elsewhere.
  std::optional<BlockId> closing_exit(BlockId construct, BlockId chain, BlockId dropped) {
    BlockId found;
    for (BlockId e : edges_.exits[construct.index()]) {
      const BlockId head = edges_.context[e.index()].chain_head;
      if (chain.valid() && head == chain && !found.valid()) found = e;
      else if (!(dropped.valid() && head == dropped)) return std::nullopt;
    }
    return found;
  }

  // The exit `e` (Merge v / Break v) now falls through into `merge`; the
  // merge input, if any, becomes v.
  bool retarget_exit(BlockId e, BlockId merge) {
    Instruction& t = block(e).instructions.back();
    const RegisterId input = block(merge).merge_input;
    if (input.valid()) {
      if (t.operands.empty() || !subst_.replace(input, t.operands[0])) return false;
      block(merge).merge_input = RegisterId{};
    }
    next_block(e, merge);
    return true;
  }

  bool simplify_if(BlockId x) {
    const auto cond = constant_operand(x);
    if (!cond) return false;
    const Block& b = block(x);
    const BlockId chosen = *cond ? b.if_true() : b.if_false();
    const BlockId dropped = *cond ? b.if_false() : b.if_true();
    const BlockId merge = b.merge;
    const auto exit = closing_exit(x, chosen, dropped);
    if (!exit) return false;
    if (!chosen.valid()) {
      if (block(merge).merge_input.valid()) return false;
      next_block(x, merge);
      return true;
    }
    if (exit->valid() && !retarget_exit(*exit, merge)) return false;
    // Without a closing exit the branch never merges: the merge chain goes.
    next_block(x, chosen);
    return true;
  }

  bool simplify_loop(BlockId x) {
    const BlockId cond = block(x).loop_condition();
    const BlockId merge = block(x).merge;
    if (!simple_block_ending(cond, Opcode::LoopIf) || constant_operand(cond) != false) return false;
    if (block(merge).merge_input.valid()) return false;
    next_block(cond, merge);
    next_block(x, cond);
    return true;
  }

  bool simplify_do_loop(BlockId x) {
    const Block& b = block(x);
    const BlockId body = b.loop_body(), cond = b.loop_condition(), cont = b.loop_continue(), merge = b.merge;
    const auto& continues = edges_.continues[x.index()];
    if (continues.empty()) {
      // Never continued: the body runs once and leaves through its exits.
      const auto exit = closing_exit(x, body, BlockId{});
      if (!exit) return false;
      if (exit->valid() && !retarget_exit(*exit, merge)) return false;
      next_block(x, body);
      return true;
    }
    // Continued only at the end of the body, and the condition says stop.
    if (!edges_.exits[x.index()].empty() || block(merge).merge_input.valid()) return false;
    if (!simple_block_ending(cond, Opcode::LoopIf) || constant_operand(cond) != false) return false;
    if (cont.valid() && !simple_block_ending(cont, Opcode::Continue)) return false;
    BlockId body_end;
    for (BlockId c : continues) {
      const BlockId head = edges_.context[c.index()].chain_head;
      if (c == cont) continue;
      if (head != body || body_end.valid()) return false;
      body_end = c;
    }
    if (!body_end.valid()) return false;
    next_block(body_end, cont.valid() ? cont : cond);
    if (cont.valid()) next_block(cont, cond);
    next_block(cond, merge);
    next_block(x, body);
    return true;
  }

  bool simplify_switch(BlockId x) {
    const Instruction* t = block(x).terminator();
    if (!t || t->operands.empty() || !t->operands[0].is_constant()) return false;
    const Constant& c = m_.constant(t->operands[0].as_constant());
    if (c.is_composite() || c.spec_id || c.spec_op != SpecOp::None) return false;
    const Block& b = block(x);
    std::optional<std::size_t> taken;
    for (std::size_t k = 0; k < b.cases.size() && !taken; ++k)
      if (b.cases[k].value == c.bits) taken = k;
    for (std::size_t k = 0; k < b.cases.size() && !taken; ++k)
      if (!b.cases[k].value) taken = k;
    const BlockId merge = b.merge;
    const BlockId chosen = taken ? b.case_blocks[*taken] : BlockId{};
    // Every Break to the switch: the chosen case's closing one, or directly
    // in another case's chain (dropped with it).
    BlockId exit;
    for (BlockId e : edges_.exits[x.index()]) {
      const BlockId head = edges_.context[e.index()].chain_head;
      if (chosen.valid() && head == chosen && !exit.valid()) {
        exit = e;
        continue;
      }
      if (head == chosen || std::find(b.case_blocks.begin(), b.case_blocks.end(), head) == b.case_blocks.end())
        return false;
    }
    if (!chosen.valid()) {
      if (block(merge).merge_input.valid()) return false;
      next_block(x, merge);
      return true;
    }
    // The chosen chain's last block: a Passthrough there runs the next case too.
    const BlockId last = chain_end(fn(), chosen);
    if (simple_block_ending(last, Opcode::Passthrough)) return false;
    if (exit.valid() && exit != last) return false;
    if (exit.valid() && !retarget_exit(exit, merge)) return false;
    next_block(x, chosen);
    return true;
  }

  bool stitch(BlockId x) {
    const BlockId next = block(x).merge;
    if (!next.valid() || next == x || next.index() >= fn().blocks.size()) return false;
    if (block(next).merge_input.valid()) return false;
    Block moved = std::move(block(next));
    block(next) = Block{};
    Block& b = block(x);
    b.instructions.pop_back();
    b.declarations.insert(b.declarations.end(), moved.declarations.begin(), moved.declarations.end());
    for (Instruction& inst : moved.instructions) b.instructions.push_back(std::move(inst));
    move_structure(moved, b);
    edges_.moved(next, x);
    return true;
  }

  bool simplify(BlockId x) {
    const auto op = block(x).terminator_opcode();
    if (!op) return false;
    switch (*op) {
      case Opcode::If: return simplify_if(x);
      case Opcode::Loop: return simplify_loop(x);
      case Opcode::DoLoop: return simplify_do_loop(x);
      case Opcode::Switch: return simplify_switch(x);
      case Opcode::NextBlock: return stitch(x);
      default: return false;
    }
  }

  Module& m_;
  FunctionId fid_;
  ControlEdges edges_;
  Substitution subst_;
};

}  // namespace

PassResult simplify_control_flow(Module& m) {
  bool changed = false;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    if (!m.function(FunctionId(i)).entry.valid()) continue;
    changed = Simplifier(m, FunctionId(i)).run() || changed;
  }
  return changed;
}

}  // namespace sluice::transform
