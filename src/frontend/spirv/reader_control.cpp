// Rebuilding a function's block tree from structured SPIR-V.
//
// Algorithm: a depth-first walk from the entry block with an explicit work
// stack (no native recursion on nesting depth), the approach of Tint's
// SPIR-V reader and naga's spv-in ("structurize by the merge
// instructions"). The walk keeps the stack of enclosing constructs
// (Construct, innermost last). Every branch target is first classified
// against it (classify): the merge block of the innermost selection is the
// IR's Merge, a loop's or switch's merge is Break, the loop's continue
// target is Continue, the loop header from its continue construct is the
// back edge, the next case of a switch is Passthrough; any other target
// lies inside the current construct and is read in place, in the same IR
// block (an OpBranch chain) or as the sub-block of the construct its header
// opens (SPIR-V spec §2.11, structured control flow):
//   OpSelectionMerge + OpBranchConditional → If (merge block: the merge)
//   OpSelectionMerge + OpSwitch → Switch, one case per value; values that
//     share a target become cases ending in Passthrough
//   OpLoopMerge → Loop (condition: the header's own instructions and its
//     exit test, body, continue block: the continue construct), or DoLoop
//     when the back-edge block branches conditionally to the header or the
//     merge (its test becomes the condition's LoopIf)
//   OpBranchConditional without a merge instruction, one target an exit →
//     If with that exit as its only branch, the other target read after it
//   a branch from a switch case to the enclosing loop's merge (the IR's
//     Break leaves the switch) → a flag set before the Break and tested in
//     the switch's merge block.
//   a two-way branch with both targets inside the construct (a selection
//     header, or a loop header branching into its body without
//     OpSelectionMerge) whose arms meet again at a block q before the
//     declared merge m (a "premerge", as Tint's reader calls it) → the If
//     ends at q: q is the first block, in reverse post-order, that the
//     header immediately structurally dominates and that is no exit (the
//     reconvergence point of the two arms; SPIR-V §2.11 and Klimis et al.,
//     POPL 2023, §4: structural dominance), arms that reach q end with
//     Merge, and q is read after the If in place, up to m (no tail is
//     copied, so the work stays linear). An arm that leaves for m before q
//     sets a flag (premerge_skip) and q's part runs under `if (!flag)`.
// A block is read at most once; a second arrival that is no exit means the
// input is not structured, and the error names the branch.
//
// Values: the IR's dominance is the tree's (a sub-block never sees its
// siblings, a loop body never sees the condition block), which is stricter
// than SPIR-V's. An id used outside the block defining it is stored into a
// Function variable where it is defined and read back where it is not
// visible; pointers and opaque values are made again instead. OpPhi results
// are variables stored on every incoming edge (before the predecessor's
// branch) and loaded at the top of their block. The SPIR-V output promotes
// both kinds back to SSA values (docs/ir.md, "SPIR-V output").
#include <algorithm>
#include <fmt/format.h>

#include "frontend/spirv/cfg/analysis.h"
#include "frontend/spirv/reader_internal.h"

namespace sluice::spirv_in::detail {
namespace {

using Kind = IdValue::Kind;

// Skip: from a premerge's arms to the selection's declared merge (past the
// premerge); Tail: to the declared merge from the premerge on (read in place).
enum class Exit : std::uint8_t { None, Merge, Break, Continue, BackEdge, Passthrough, FlagBreak, Skip, Tail, Bad };

struct Work {
  enum class Kind : std::uint8_t {
    Goto, LoopHeader, LoopBodyTerminator, DoLoopBody, SelfLoopCondition, SwitchMerge, PremergeTail, Terminate
  };
  Kind kind = Kind::Goto;
  ir::BlockId block;
  BlockIndex target = kNone;
  std::int32_t ctx = -1;
  std::size_t mark = 0;
  ir::BlockId body{};                        // LoopHeader
  ir::Opcode op = ir::Opcode::Unreachable;   // Terminate
  std::uint32_t sw = 0;                      // SwitchMerge; PremergeTail: the premerge's state
};

// A selection (or a loop header's two-way branch) whose arms meet before
// its declared merge: skip is made when an arm leaves to the declared merge.
struct PremergeState {
  BlockIndex merge = kNone;  // the declared merge; kNone for a loop header's branch
  ir::VariableId skip;       // true when an arm left for the declared merge
};

class Walk {
 public:
  Walk(Reader& r, const Function& f, ir::FunctionId fid, const cfg::FunctionCfg& cfg)
      : r_(r), f_(f), fid_(fid), cfg_(cfg), emitted_(f.blocks.size(), 0) {}

  void run(ir::BlockId entry) {
    stack_.push_back(Work{Work::Kind::Goto, entry, 0, -1, r_.scope_.size()});
    while (!stack_.empty() && !r_.failed()) {
      Work w = stack_.back();
      stack_.pop_back();
      release(w.mark);
      r_.b_.set_block(w.block);
      switch (w.kind) {
        case Work::Kind::Goto: go(w.target, w.ctx); break;
        case Work::Kind::LoopHeader: loop_header(w); break;
        case Work::Kind::LoopBodyTerminator:
          // An OpBranchConditional with equal targets is an OpBranch: go on.
          if (auto next = terminator(w.target, w.ctx)) go(*next, w.ctx);
          break;
        case Work::Kind::DoLoopBody:
          body(w.target);
          if (auto next = terminator(w.target, w.ctx)) go(*next, w.ctx);
          break;
        case Work::Kind::SelfLoopCondition: self_loop_condition(w); break;
        case Work::Kind::SwitchMerge: switch_merge(w); break;
        case Work::Kind::PremergeTail: premerge_tail(w); break;
        case Work::Kind::Terminate: terminate(w.op); break;
      }
    }
  }

 private:
  const Instruction& term(BlockIndex x) const { return r_.sm_.instructions[f_.blocks[x].terminator]; }
  std::string label(BlockIndex x) const { return r_.sm_.describe(f_.blocks[x].label); }

  void release(std::size_t mark) {
    for (std::size_t i = mark; i < r_.scope_.size(); ++i) r_.visible_[r_.scope_[i].index()] = 0;
    r_.scope_.resize(std::min(mark, r_.scope_.size()));
  }

  std::int32_t push_construct(Construct c) {
    r_.constructs_.push_back(c);
    return static_cast<std::int32_t>(r_.constructs_.size() - 1);
  }

  void push(Work w) { stack_.push_back(w); }

  void terminate(ir::Opcode op, std::optional<ir::Operand> v = std::nullopt) {
    auto t = r_.b_.terminate(op, v);
    if (!t) r_.fail(fmt::format("function {}: {}", r_.sm_.describe(f_.id), t.error()));
  }

  bool enter(BlockIndex x) {
    if (emitted_[x]) {
      r_.fail(fmt::format("block {} is reached a second time, not as the merge block or continue target of a "
                          "construct: the control flow is not structured as the block tree needs",
                          label(x)));
      return false;
    }
    emitted_[x] = 1;
    return true;
  }

  Exit classify(BlockIndex x, std::int32_t ctx, std::int32_t* crossed_case_out = nullptr) const {
    bool crossed = false, bad_if = false;
    std::int32_t crossed_case = -1;
    for (std::int32_t e = ctx; e >= 0; e = r_.constructs_[e].parent) {
      const Construct& c = r_.constructs_[e];
      switch (c.kind) {
        case Construct::Kind::If:
          if (x == c.merge) {
            if (!crossed) return c.tail ? Exit::Tail : Exit::Merge;
            bad_if = true;
          }
          break;
        case Construct::Kind::Premerge:
          // Only from the arms' own chain: a nested construct exits to its own merge first.
          if (x == c.merge) return crossed ? Exit::Bad : Exit::Merge;
          if (x == c.outer_merge) return crossed ? Exit::Bad : Exit::Skip;
          break;
        case Construct::Kind::Case:
          if (x == c.merge) return crossed_case >= 0 ? Exit::Bad : Exit::Break;
          if (x == c.next_case) return crossed ? Exit::Bad : Exit::Passthrough;
          if (crossed_case < 0) crossed_case = e;
          break;
        case Construct::Kind::Loop:
          if (c.in_continue) {
            if (x == c.header) return Exit::BackEdge;
            if (x == c.merge) return Exit::Bad;
            return bad_if ? Exit::Bad : Exit::None;
          }
          if (x == c.merge) {
            if (crossed_case_out) *crossed_case_out = crossed_case;
            return crossed_case >= 0 ? Exit::FlagBreak : Exit::Break;
          }
          if (x == c.continue_target) return Exit::Continue;
          return bad_if ? Exit::Bad : Exit::None;
      }
      crossed = true;
    }
    return bad_if ? Exit::Bad : Exit::None;
  }

  // Ends the current block with the exit classify() found.
  void exit(Exit e, BlockIndex x, std::int32_t ctx) {
    switch (e) {
      case Exit::Merge: return terminate(ir::Opcode::Merge);
      case Exit::Break: return terminate(ir::Opcode::Break);
      case Exit::Continue: return terminate(ir::Opcode::Continue);
      case Exit::BackEdge:
        // An unconditional back edge ending a DoLoop's condition chain (a
        // loop that is its own continue target): the chain ends in a LoopIf.
        if (ctx >= 0 && r_.constructs_[ctx].kind == Construct::Kind::Loop && r_.constructs_[ctx].do_loop)
          return terminate(ir::Opcode::LoopIf, r_.m_.bool_constant(true));
        return terminate(ir::Opcode::Continue);
      case Exit::Passthrough: return terminate(ir::Opcode::Passthrough);
      case Exit::Skip:
        (void)r_.b_.store(skip_flag(ctx), r_.m_.bool_constant(true));
        return terminate(ir::Opcode::Merge);
      case Exit::Tail: return;  // go() reads on in place
      case Exit::FlagBreak: {
        std::int32_t cc = -1;
        classify(x, ctx, &cc);
        SwitchState& s = r_.switches_[r_.constructs_[cc].switch_index];
        if (!s.break_flag.valid()) {
          s.break_flag = r_.local(r_.m_.scalar_type(ir::ScalarKind::Bool), "break_loop");
          r_.m_.variable(s.break_flag).initializer = r_.m_.bool_constant(false);
        }
        s.loop_merge = x;
        (void)r_.b_.store(s.break_flag, r_.m_.bool_constant(true));
        return terminate(ir::Opcode::Break);
      }
      case Exit::Bad:
        // Each such branch breaks a rule of SPIR-V §2.11.3 (spirv-val
        // refuses them too); read_function appends the rule the
        // analysis finds (docs/spirv-cfg.md).
        r_.fail(fmt::format("a branch to block {} is not a structured exit of the constructs it leaves (a selection "
                            "exits only to its own merge block, a continue construct only from its back-edge block, "
                            "a case only to its switch's merge or the case that follows it)",
                            label(x)));
        return;
      case Exit::None: return;
    }
  }

  // Reads block x and what follows it, into the current IR block.
  void go(BlockIndex x, std::int32_t ctx) {
    for (std::size_t steps = 0; !r_.failed(); ++steps) {
      const Exit e = classify(x, ctx);
      if (e == Exit::Tail) {
        // The declared merge after a premerge: the selection ends here, in
        // the same IR block (iteratively: tails may nest).
        ctx = r_.constructs_[ctx].parent;
        continue;
      }
      if (e != Exit::None) return exit(e, x, ctx);
      if (f_.blocks[x].merge_kind == MergeKind::Loop) return open_loop(x, ctx);
      if (!enter(x)) return;
      body(x);
      auto next = terminator(x, ctx);
      if (!next) return;
      x = *next;
    }
  }

  // The phis' loads, the instructions, and the stores that feed the
  // successors' phis.
  void body(BlockIndex x) {
    const Block& blk = f_.blocks[x];
    for (InstrIndex i = blk.label_index + 1; i < blk.terminator && !r_.failed(); ++i) {
      const Instruction& inst = r_.sm_.instructions[i];
      switch (inst.opcode) {
        case spv::Op::OpPhi: {
          r_.locate(i);
          auto reg = r_.b_.load(r_.phi_var_[inst.result_id]);
          if (!reg) return r_.fail(inst, reg.error());
          r_.scope_push(*reg);
          r_.define(inst.result_id, *reg);
          break;
        }
        case spv::Op::OpLine:
        case spv::Op::OpNoLine:
        case spv::Op::OpSelectionMerge:
        case spv::Op::OpLoopMerge:
        case spv::Op::OpVariable:  // declared at the function's start
        case spv::Op::OpNop: break;
        default:
          r_.locate(i);
          r_.instruction(inst);
          break;
      }
    }
    // Edge stores, once per distinct successor.
    std::vector<BlockIndex> done;
    for (BlockIndex s : blk.successors) {
      if (std::find(done.begin(), done.end(), s) != done.end()) continue;
      done.push_back(s);
      const Block& sb = f_.blocks[s];
      for (InstrIndex i = sb.label_index + 1; i < sb.terminator && !r_.failed(); ++i) {
        const Instruction& phi = r_.sm_.instructions[i];
        if (phi.opcode == spv::Op::OpLine || phi.opcode == spv::Op::OpNoLine) continue;
        if (phi.opcode != spv::Op::OpPhi) break;
        for (std::size_t k = 0; k + 1 < r_.in_count(phi); k += 2)
          if (r_.in(phi, k + 1) == blk.label) {
            auto st = r_.b_.store(r_.phi_var_[phi.result_id], r_.value(r_.in(phi, k)));
            if (!st) return r_.fail(phi, st.error());
            break;
          }
      }
    }
  }

  // Translates x's terminator in the current IR block; returns the block
  // to read next in the same IR block (OpBranch), if any.
  std::optional<BlockIndex> terminator(BlockIndex x, std::int32_t ctx) {
    if (r_.failed()) return std::nullopt;
    const Block& blk = f_.blocks[x];
    const Instruction& t = term(x);
    r_.locate(blk.terminator);
    switch (t.opcode) {
      case spv::Op::OpBranch: return blk.successors[0];
      case spv::Op::OpReturn: terminate(ir::Opcode::Return); return std::nullopt;
      case spv::Op::OpReturnValue: terminate(ir::Opcode::Return, r_.value(r_.in(t, 0))); return std::nullopt;
      case spv::Op::OpKill:
      case spv::Op::OpTerminateInvocation: terminate(ir::Opcode::Discard); return std::nullopt;
      case spv::Op::OpUnreachable: terminate(ir::Opcode::Unreachable); return std::nullopt;
      case spv::Op::OpBranchConditional: return conditional(x, ctx);
      case spv::Op::OpSwitch: switch_(x, ctx); return std::nullopt;
      default: r_.fail(t, "unsupported block terminator"); return std::nullopt;
    }
  }

  std::optional<BlockIndex> conditional(BlockIndex x, std::int32_t ctx) {
    const Block& blk = f_.blocks[x];
    const Instruction& t = term(x);
    const BlockIndex tt = blk.successors[0], ff = blk.successors[1];
    if (tt == ff) {
      // OpSelectionMerge before a branch to one block is still a selection
      // (SD(header) − SD(merge)) whose blocks may exit to its merge: read
      // in place up to the merge, as a premerge's tail is.
      if (blk.merge_kind != MergeKind::Selection || tt == blk.merge_block) return tt;
      Construct tail{Construct::Kind::If, blk.merge_block, kNone, kNone, kNone, 0, false, false, ctx};
      tail.tail = true;
      push(Work{Work::Kind::Goto, r_.b_.block(), tt, push_construct(tail), r_.scope_.size()});
      return std::nullopt;
    }
    ir::Operand c = r_.value(r_.in(t, 0));
    if (r_.failed()) return std::nullopt;
    // The back edge of a loop read as a DoLoop: its test is the LoopIf.
    if (ctx >= 0) {
      const Construct& in = r_.constructs_[ctx];
      if (in.kind == Construct::Kind::Loop && in.in_continue && in.do_loop) {
        if (tt == in.header && ff == in.merge) {
          terminate(ir::Opcode::LoopIf, c);
          return std::nullopt;
        }
        if (ff == in.header && tt == in.merge) {
          terminate(ir::Opcode::LoopIf, negate(c, t));
          return std::nullopt;
        }
      }
    }
    const std::size_t mark = r_.scope_.size();
    if (blk.merge_kind == MergeKind::Selection) {
      const BlockIndex m = blk.merge_block;
      if (tt != m && ff != m) {
        two_armed(x, ctx, c, t, tt, ff, m);
        return std::nullopt;
      }
      const std::int32_t in_if = push_construct(Construct{Construct::Kind::If, m, kNone, kNone, kNone, 0, false, false, ctx});
      const BlockIndex only = tt == m ? ff : tt;
      auto ib = r_.b_.branch_if(tt == m ? negate(c, t) : c, false);
      if (!ib) return r_.fail(t, ib.error()), std::nullopt;
      push(Work{Work::Kind::Goto, ib->merge, m, ctx, mark});
      push(Work{Work::Kind::Goto, ib->true_block, only, in_if, mark});
      return std::nullopt;
    }
    // No merge instruction: structured only if a target is an exit.
    const Exit et = classify(tt, ctx), ef = classify(ff, ctx);
    if (et == Exit::None && ef == Exit::None) {
      // A loop header's OpLoopMerge is its merge instruction: a two-way
      // branch into the body is a selection without a declared merge.
      if (blk.merge_kind == MergeKind::Loop) {
        two_armed(x, ctx, c, t, tt, ff, kNone);
        return std::nullopt;
      }
      r_.fail(t, fmt::format("unstructured branch: block {} branches to {} and {} without a merge instruction",
                             label(x), label(tt), label(ff)));
      return std::nullopt;
    }
    if ((et == Exit::Merge && ef == Exit::Skip) || (et == Exit::Skip && ef == Exit::Merge)) {
      // From a premerge's arms to the premerge and to the declared merge:
      // both end the arm, the flag says which.
      (void)r_.b_.store(skip_flag(ctx), et == Exit::Skip ? c : negate(c, t));
      terminate(ir::Opcode::Merge);
      return std::nullopt;
    }
    if (et != Exit::None && ef != Exit::None) {
      // Both sides leave. A Merge or a Passthrough ends the chain it stands
      // in: inside a new If it would end that If (and the IR allows a
      // Passthrough only at the end of a case's chain). So such an exit
      // (a conditional fall-through, or a selection's merge beside a break)
      // follows the new If, which holds only the other exit. The two never
      // meet: a Merge needs an If innermost, a Passthrough a case.
      const auto ends = [](Exit e) {
        return e == Exit::Merge || e == Exit::Passthrough || e == Exit::Skip || e == Exit::Tail;
      };
      const bool t_ends = ends(et);
      if (t_ends || ends(ef)) {
        auto ib = r_.b_.branch_if(t_ends ? negate(c, t) : c, false);
        if (!ib) return r_.fail(t, ib.error()), std::nullopt;
        push(Work{Work::Kind::Goto, ib->merge, t_ends ? tt : ff, ctx, mark});
        push(Work{Work::Kind::Goto, ib->true_block, t_ends ? ff : tt, ctx, mark});
        return std::nullopt;
      }
      // Otherwise each exit is a sub-block of a new If.
      auto ib = r_.b_.branch_if(c, true);
      if (!ib) return r_.fail(t, ib.error()), std::nullopt;
      push(Work{Work::Kind::Terminate, ib->merge, kNone, ctx, mark, {}, ir::Opcode::Unreachable});
      push(Work{Work::Kind::Goto, ib->false_block, ff, ctx, mark});
      push(Work{Work::Kind::Goto, ib->true_block, tt, ctx, mark});
      return std::nullopt;
    }
    const bool true_exits = et != Exit::None;
    const Exit e = true_exits ? et : ef;
    const BlockIndex exit_target = true_exits ? tt : ff, rest = true_exits ? ff : tt;
    if (e == Exit::Passthrough || e == Exit::BackEdge) {
      // Neither a case nor the loop header is a merge block or continue
      // target, so SPIR-V §2.11 requires an OpSelectionMerge here.
      r_.fail(t, fmt::format("unstructured branch: block {} branches to {} (a fall-through or back edge) and {} "
                             "without a merge instruction",
                             label(x), label(exit_target), label(rest)));
      return std::nullopt;
    }
    if (e == Exit::Merge || e == Exit::Skip || e == Exit::Tail) {
      // A Merge inside a new If would end that If: the rest goes inside
      // instead, where the same merge block again is the rest's Merge
      // (ending the new If, whose merge block then merges). In a
      // premerge's arms the new If repeats the arms' construct (both of
      // its exits stay exits, the flag set on the way), and a Skip goes in
      // the new If's other branch: after the If only Merge follows.
      Construct in{Construct::Kind::If, exit_target, kNone, kNone, kNone, 0, false, false, ctx};
      if (r_.constructs_[ctx].kind == Construct::Kind::Premerge) {
        in = r_.constructs_[ctx];
        in.parent = ctx;
      }
      const std::int32_t inner = push_construct(in);
      if (e == Exit::Skip) {
        auto ib = r_.b_.branch_if(true_exits ? c : negate(c, t), true);
        if (!ib) return r_.fail(t, ib.error()), std::nullopt;
        push(Work{Work::Kind::Terminate, ib->merge, kNone, ctx, mark, {}, ir::Opcode::Merge});
        push(Work{Work::Kind::Goto, ib->false_block, rest, inner, mark});
        push(Work{Work::Kind::Goto, ib->true_block, exit_target, ctx, mark});
        return std::nullopt;
      }
      auto ib = r_.b_.branch_if(true_exits ? negate(c, t) : c, false);
      if (!ib) return r_.fail(t, ib.error()), std::nullopt;
      push(Work{Work::Kind::Goto, ib->merge, exit_target, ctx, mark});
      push(Work{Work::Kind::Goto, ib->true_block, rest, inner, mark});
      return std::nullopt;
    }
    auto ib = r_.b_.branch_if(true_exits ? c : negate(c, t), false);
    if (!ib) return r_.fail(t, ib.error()), std::nullopt;
    push(Work{Work::Kind::Goto, ib->merge, rest, ctx, mark});
    push(Work{Work::Kind::Goto, ib->true_block, exit_target, ctx, mark});
    return std::nullopt;
  }

  // A block's number in a reverse post-order over all three edge kinds
  // (made once per function, when first needed).
  std::uint32_t rpo(BlockIndex b) {
    if (rpo_.empty()) {
      std::vector<std::pair<cfg::Node, cfg::Node>> pairs;
      pairs.reserve(cfg_.edges().size());
      for (const cfg::Edge& e : cfg_.edges()) pairs.emplace_back(e.from, e.to);
      rpo_ = cfg::depth_first(cfg::Graph::from_edges(cfg_.size(), pairs), 0).rpo_number;
    }
    return rpo_[b];
  }

  // The premerge of a two-way branch at x: the first block (in reverse
  // post-order) that x immediately structurally dominates, that both arms
  // reach, and that is neither the declared merge m nor an exit of the
  // enclosing constructs. Immediately dominated by x, it is reached from
  // both arms (the first block of an arm qualifies when it has another
  // incoming edge). Each block is the dominator-tree child of one block,
  // so all searches of a function together are linear.
  BlockIndex premerge(BlockIndex x, std::int32_t ctx, BlockIndex tt, BlockIndex ff, BlockIndex m) {
    BlockIndex best = kNone;
    for (const cfg::Node q : cfg_.dominator_tree().children(x)) {
      if (q == m || q >= f_.blocks.size()) continue;
      if (q == tt || q == ff) {
        std::size_t incoming = 0;
        for (const std::uint32_t k : cfg_.in_edges(q)) {
          const cfg::Edge& e = cfg_.edges()[k];
          if (!e.back && cfg_.reachable(e.from)) ++incoming;
        }
        if (incoming < 2) continue;
      }
      if (classify(q, ctx) != Exit::None) continue;
      if (best == kNone || rpo(q) < rpo(best)) best = q;
    }
    return best;
  }

  // A two-way branch at x whose targets both lie in the construct: an
  // OpSelectionMerge header (declared merge m), or a loop header's branch
  // into its body (m = kNone: every path that does not meet again leaves
  // the loop body). Without a premerge: If, merge block m. With premerge
  // q: If ending where the arms reach q (Merge), then q read after it, in
  // place when no arm left for m, else under `if (!premerge_skip)`
  // (premerge_tail); branches to m from q on are Merges (or the tail).
  void two_armed(BlockIndex x, std::int32_t ctx, ir::Operand c, const Instruction& t, BlockIndex tt, BlockIndex ff,
                 BlockIndex m) {
    const std::size_t mark = r_.scope_.size();
    const BlockIndex q = premerge(x, ctx, tt, ff, m);
    if (q == kNone) {
      auto ib = r_.b_.branch_if(c, true);
      if (!ib) return r_.fail(t, ib.error());
      std::int32_t arms = ctx;
      if (m != kNone) {
        arms = push_construct(Construct{Construct::Kind::If, m, kNone, kNone, kNone, 0, false, false, ctx});
        push(Work{Work::Kind::Goto, ib->merge, m, ctx, mark});
      } else {
        push(Work{Work::Kind::Terminate, ib->merge, kNone, ctx, mark, {}, ir::Opcode::Unreachable});
      }
      push(Work{Work::Kind::Goto, ib->false_block, ff, arms, mark});
      push(Work{Work::Kind::Goto, ib->true_block, tt, arms, mark});
      return;
    }
    const auto index = static_cast<std::uint32_t>(premerges_.size());
    premerges_.push_back(PremergeState{m, {}});
    Construct p{Construct::Kind::Premerge, q, kNone, kNone, kNone, 0, false, false, ctx};
    p.outer_merge = m;
    p.premerge_index = index;
    const std::int32_t arms = push_construct(p);
    const bool one_arm = tt == q || ff == q;  // an arm that starts at the premerge is empty
    auto ib = r_.b_.branch_if(tt == q ? negate(c, t) : c, !one_arm);
    if (!ib) return r_.fail(t, ib.error());
    push(Work{Work::Kind::PremergeTail, ib->merge, q, ctx, mark, {}, ir::Opcode::Unreachable, index});
    if (!one_arm) push(Work{Work::Kind::Goto, ib->false_block, ff, arms, mark});
    push(Work{Work::Kind::Goto, ib->true_block, tt == q ? ff : tt, arms, mark});
  }

  // After a premerge's If (its arms are read: work items are a stack).
  void premerge_tail(const Work& w) {
    const PremergeState s = premerges_[w.sw];
    if (!s.skip.valid()) {
      // Every arm that reaches the merge block came through the premerge.
      if (s.merge == kNone) return go(w.target, w.ctx);
      Construct tail{Construct::Kind::If, s.merge, kNone, kNone, kNone, 0, false, false, w.ctx};
      tail.tail = true;
      return go(w.target, push_construct(tail));
    }
    auto skipped = r_.b_.load(s.skip);
    if (!skipped) return r_.fail(skipped.error());
    r_.scope_push(*skipped);
    (void)r_.b_.store(s.skip, r_.m_.bool_constant(false));  // for the next time round an enclosing loop
    auto reached = r_.b_.emit(ir::Opcode::LogicalNot, {*skipped});
    if (!reached) return r_.fail(reached.error());
    r_.scope_push(*reached);
    auto ib = r_.b_.branch_if(*reached, false);
    if (!ib) return r_.fail(ib.error());
    const std::size_t mark = r_.scope_.size();
    const std::int32_t in_if =
        push_construct(Construct{Construct::Kind::If, s.merge, kNone, kNone, kNone, 0, false, false, w.ctx});
    push(Work{Work::Kind::Goto, ib->merge, s.merge, w.ctx, mark});
    push(Work{Work::Kind::Goto, ib->true_block, w.target, in_if, mark});
  }

  // The flag of the premerge whose arms ctx is in, made when first needed.
  ir::VariableId skip_flag(std::int32_t ctx) {
    PremergeState& s = premerges_[r_.constructs_[ctx].premerge_index];
    if (!s.skip.valid()) {
      s.skip = r_.local(r_.m_.scalar_type(ir::ScalarKind::Bool), "premerge_skip");
      r_.m_.variable(s.skip).initializer = r_.m_.bool_constant(false);
    }
    return s.skip;
  }

  ir::Operand negate(ir::Operand c, const Instruction& t) {
    if (c.is_constant()) return r_.m_.bool_constant(!r_.m_.constant(c.as_constant()).as_bool());
    auto n = r_.b_.emit(ir::Opcode::LogicalNot, {c});
    if (!n) {
      r_.fail(t, n.error());
      return c;
    }
    r_.scope_push(*n);
    return *n;
  }

  void switch_(BlockIndex x, std::int32_t ctx) {
    const Block& blk = f_.blocks[x];
    const Instruction& t = term(x);
    if (blk.merge_kind != MergeKind::Selection) return r_.fail(t, "OpSwitch without OpSelectionMerge");
    const BlockIndex m = blk.merge_block;
    const ir::Operand sel = r_.value(r_.in(t, 0));
    if (r_.failed()) return;
    struct Group {
      BlockIndex target;
      std::vector<std::uint32_t> values;
      bool is_default = false;
    };
    std::vector<Group> groups;
    auto group_of = [&](BlockIndex target) -> Group& {
      for (Group& g : groups)
        if (g.target == target) return g;
      groups.push_back(Group{target, {}, false});
      return groups.back();
    };
    const BlockIndex def = blk.successors[0];
    group_of(def).is_default = true;
    for (std::size_t i = 0; i + 1 < blk.successors.size(); ++i)
      group_of(blk.successors[i + 1]).values.push_back(static_cast<std::uint32_t>(blk.case_literals[i]));
    // Cases in fall-through order: a case that falls through comes right
    // before its target (SPIR-V spec §2.16.2). Which case a case falls into
    // is found by a search through its blocks that stops at exits; chains
    // start in the order of their blocks in the function.
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.target < b.target; });
    {
      const std::size_t n = groups.size();
      std::vector<std::size_t> falls(n, SIZE_MAX);
      std::vector<std::uint8_t> has_pred(n, 0);
      std::vector<std::uint8_t> seen(f_.blocks.size(), 0);
      for (std::size_t g = 0; g < n; ++g) {
        if (groups[g].target == m) continue;
        std::vector<BlockIndex> to_visit{groups[g].target};
        std::vector<BlockIndex> marked{groups[g].target};
        seen[groups[g].target] = 1;
        while (!to_visit.empty() && falls[g] == SIZE_MAX) {
          const BlockIndex y = to_visit.back();
          to_visit.pop_back();
          for (BlockIndex s : f_.blocks[y].successors) {
            if (s == m || seen[s]) continue;
            bool is_case = false;
            for (std::size_t h = 0; h < n; ++h)
              if (h != g && groups[h].target == s) {
                falls[g] = h;
                is_case = true;
              }
            if (is_case) break;
            if (classify(s, ctx) != Exit::None) continue;
            seen[s] = 1;
            marked.push_back(s);
            to_visit.push_back(s);
          }
        }
        for (BlockIndex y : marked) seen[y] = 0;
        if (falls[g] != SIZE_MAX) has_pred[falls[g]] = 1;
      }
      std::vector<Group> ordered;
      std::vector<std::uint8_t> placed(n, 0);
      for (std::size_t g = 0; g < n; ++g) {
        if (has_pred[g] || placed[g]) continue;
        for (std::size_t h = g; h != SIZE_MAX && !placed[h]; h = falls[h]) {
          placed[h] = 1;
          ordered.push_back(groups[h]);
        }
      }
      for (std::size_t g = 0; g < n; ++g)
        if (!placed[g]) ordered.push_back(groups[g]);  // a fall-through cycle: reported when read
      groups = std::move(ordered);
    }
    std::vector<ir::SwitchCase> cases;
    struct Plan {
      ir::Opcode op;        // Passthrough/Break for filler cases, Unreachable = read the target
      std::size_t group;
    };
    std::vector<Plan> plans;
    const bool default_is_merge = def == m;
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
      const Group& g = groups[gi];
      if (g.target == m) {
        if (default_is_merge) continue;  // no case: unmatched values reach the merge anyway
        for (std::uint32_t v : g.values) {
          cases.push_back(ir::SwitchCase{v});
          plans.push_back(Plan{ir::Opcode::Break, gi});
        }
        continue;
      }
      std::vector<ir::SwitchCase> entries;
      for (std::uint32_t v : g.values) entries.push_back(ir::SwitchCase{v});
      if (g.is_default) entries.push_back(ir::SwitchCase{std::nullopt});
      for (std::size_t k = 0; k < entries.size(); ++k) {
        cases.push_back(entries[k]);
        plans.push_back(Plan{k + 1 < entries.size() ? ir::Opcode::Passthrough : ir::Opcode::Unreachable, gi});
      }
    }
    const std::size_t mark = r_.scope_.size();
    if (cases.empty()) {
      push(Work{Work::Kind::Goto, r_.b_.block(), m, ctx, mark});
      return;
    }
    auto sb = r_.b_.branch_switch(sel, cases);
    if (!sb) return r_.fail(t, sb.error());
    const std::uint32_t si = static_cast<std::uint32_t>(r_.switches_.size());
    r_.switches_.push_back(SwitchState{});
    push(Work{Work::Kind::SwitchMerge, sb->merge, m, ctx, mark, {}, ir::Opcode::Unreachable, si});
    for (std::size_t k = plans.size(); k-- > 0;) {
      const Plan& p = plans[k];
      if (p.op != ir::Opcode::Unreachable) {
        push(Work{Work::Kind::Terminate, sb->cases[k], kNone, ctx, mark, {}, p.op});
        continue;
      }
      // The next group that is a real case, for fall-through.
      BlockIndex next = kNone;
      for (std::size_t g = p.group + 1; g < groups.size(); ++g)
        if (groups[g].target != m) {
          next = groups[g].target;
          break;
        }
      const std::int32_t in_case =
          push_construct(Construct{Construct::Kind::Case, m, kNone, kNone, next, si, false, false, ctx});
      push(Work{Work::Kind::Goto, sb->cases[k], groups[p.group].target, in_case, mark});
    }
  }

  void switch_merge(const Work& w) {
    const SwitchState s = r_.switches_[w.sw];
    if (!s.break_flag.valid()) return go(w.target, w.ctx);
    auto flag = r_.b_.load(s.break_flag);
    if (!flag) return r_.fail(flag.error());
    r_.scope_push(*flag);
    auto ib = r_.b_.branch_if(*flag, false);
    if (!ib) return r_.fail(ib.error());
    const std::size_t mark = r_.scope_.size();
    push(Work{Work::Kind::Goto, ib->merge, w.target, w.ctx, mark});
    r_.b_.set_block(ib->true_block);
    (void)r_.b_.store(s.break_flag, r_.m_.bool_constant(false));
    push(Work{Work::Kind::Goto, ib->true_block, s.loop_merge, w.ctx, mark});
  }

  // The block with the back edge: the one in the continue construct that
  // branches to the header (a search from the continue target that stops
  // at the header and the merge block).
  BlockIndex back_edge_block(BlockIndex h, BlockIndex c, BlockIndex m) const {
    std::vector<BlockIndex> to_visit{c};
    std::vector<std::uint8_t> seen(f_.blocks.size(), 0);
    seen[c] = 1;
    while (!to_visit.empty()) {
      const BlockIndex x = to_visit.back();
      to_visit.pop_back();
      for (BlockIndex s : f_.blocks[x].successors) {
        if (s == h) return x;
        if (s == m || seen[s]) continue;
        seen[s] = 1;
        to_visit.push_back(s);
      }
    }
    return kNone;
  }

  void open_loop(BlockIndex h, std::int32_t ctx) {
    const Block& hb = f_.blocks[h];
    const BlockIndex m = hb.merge_block, c = hb.continue_target;
    if (!enter(h)) return;
    if (c == m) return r_.fail(term(h), fmt::format("loop {}: the continue target is the merge block", label(h)));
    const BlockIndex back = c == h ? h : back_edge_block(h, c, m);
    bool do_loop = c == h;
    if (back != kNone && term(back).opcode == spv::Op::OpBranchConditional) {
      const auto& s = f_.blocks[back].successors;
      do_loop = (s[0] == h && s[1] == m) || (s[0] == m && s[1] == h);
    }
    Construct loop{Construct::Kind::Loop, m, c, h, kNone, 0, false, do_loop, ctx};
    const std::int32_t body_ctx = push_construct(loop);
    loop.in_continue = true;
    const std::int32_t cont_ctx = push_construct(loop);
    const std::size_t mark = r_.scope_.size();
    auto lb = r_.b_.branch_loop(do_loop, !do_loop);
    if (!lb) return r_.fail(term(h), lb.error());
    push(Work{Work::Kind::Goto, lb->merge, m, ctx, mark});
    if (!do_loop) {
      push(Work{Work::Kind::Goto, lb->continue_block, c, cont_ctx, mark});
      push(Work{Work::Kind::LoopHeader, lb->condition, h, body_ctx, mark, lb->body});
    } else if (c == h) {
      push(Work{Work::Kind::SelfLoopCondition, lb->condition, h, cont_ctx, mark});
      push(Work{Work::Kind::Terminate, lb->body, kNone, body_ctx, mark, {}, ir::Opcode::Continue});
    } else {
      push(Work{Work::Kind::Goto, lb->condition, c, cont_ctx, mark});
      push(Work{Work::Kind::DoLoopBody, lb->body, h, body_ctx, mark});
    }
  }

  // A Loop's condition block: the header's instructions and its exit test.
  void loop_header(const Work& w) {
    const BlockIndex h = w.target;
    body(h);
    if (r_.failed()) return;
    const Block& hb = f_.blocks[h];
    const Instruction& t = term(h);
    r_.locate(hb.terminator);
    const BlockIndex m = hb.merge_block;
    if (t.opcode == spv::Op::OpBranchConditional && hb.successors[0] != hb.successors[1] &&
        (hb.successors[0] == m || hb.successors[1] == m)) {
      const ir::Operand c = r_.value(r_.in(t, 0));
      if (r_.failed()) return;
      const bool exit_on_true = hb.successors[0] == m;
      terminate(ir::Opcode::LoopIf, exit_on_true ? negate(c, t) : c);
      push(Work{Work::Kind::Goto, w.body, exit_on_true ? hb.successors[1] : hb.successors[0], w.ctx, w.mark});
      return;
    }
    terminate(ir::Opcode::LoopIf, r_.m_.bool_constant(true));
    if (t.opcode == spv::Op::OpBranch) push(Work{Work::Kind::Goto, w.body, hb.successors[0], w.ctx, w.mark});
    else push(Work{Work::Kind::LoopBodyTerminator, w.body, h, w.ctx, w.mark});
  }

  // A DoLoop whose header is its own continue target: the continue
  // construct is the whole loop, read from the header as the condition
  // chain (the body only continues), ending where the back-edge block
  // branches to the header or the merge (a LoopIf).
  void self_loop_condition(const Work& w) {
    const BlockIndex h = w.target;
    body(h);
    if (r_.failed()) return;
    const Block& hb = f_.blocks[h];
    if (term(h).opcode == spv::Op::OpBranch && hb.successors[0] == h)
      return terminate(ir::Opcode::LoopIf, r_.m_.bool_constant(true));
    if (auto next = terminator(h, w.ctx)) go(*next, w.ctx);
  }

  Reader& r_;
  const Function& f_;
  ir::FunctionId fid_;
  const cfg::FunctionCfg& cfg_;
  std::vector<std::uint8_t> emitted_;
  std::vector<Work> stack_;
  std::vector<PremergeState> premerges_;
  std::vector<std::uint32_t> rpo_;
};

}  // namespace

ir::VariableId Reader::local(ir::TypeId t, const std::string& name, ir::Precision p) {
  ir::Variable v;
  v.name = ir::Name{name, ir::NameSource::Temporary};
  v.type = m_.pointer_type(t, ir::StorageClass::Function);
  v.precision = p;
  const ir::VariableId id = m_.add_variable(std::move(v));
  ir::Function& f = m_.function(b_.function());
  f.block(f.entry).declarations.push_back(id);
  return id;
}

void Reader::scope_push(ir::RegisterId r) {
  if (!r.valid()) return;
  if (visible_.size() < m_.register_count()) visible_.resize(m_.register_count() * 2 + 16, 0);
  visible_[r.index()] = 1;
  scope_.push_back(r);
}

std::optional<ReadError> Reader::read_function(const Function& f, ir::FunctionId fid) {
  fn_ = &f;
  b_.set_function(fid);
  const ir::BlockId entry = m_.function(fid).entry;
  b_.set_block(entry);
  if (f.blocks.empty()) {
    fail(fmt::format("function {} has no body", sm_.describe(f.id)));
    return error_;
  }
  // Where each id is defined, and which are used in another block.
  std::vector<Id> touched;
  for (BlockIndex bi = 0; bi < f.blocks.size(); ++bi) {
    const Block& blk = f.blocks[bi];
    for (InstrIndex i = blk.label_index + 1; i <= blk.terminator; ++i)
      if (const Id r = sm_.instructions[i].result_id; r && r < def_block_.size()) {
        def_block_[r] = bi;
        touched.push_back(r);
      }
  }
  std::vector<std::uint8_t> cross(sm_.bound, 0);
  for (BlockIndex bi = 0; bi < f.blocks.size(); ++bi) {
    const Block& blk = f.blocks[bi];
    const bool header = blk.merge_kind == MergeKind::Loop;
    for (InstrIndex i = blk.label_index + 1; i <= blk.terminator; ++i) {
      const Instruction& inst = sm_.instructions[i];
      const std::size_t first = inst.first_in_operand();
      for (std::size_t k = first; k < inst.operands.size(); ++k) {
        if (inst.operands[k].cls != OperandClass::IdRef) continue;
        const Id id = inst.operand_word(k);
        if (id >= def_block_.size() || def_block_[id] == kNone) continue;
        BlockIndex use = bi;
        if (inst.opcode == spv::Op::OpPhi && (k - first) % 2 == 0 && k + 1 < inst.operands.size())
          use = f.block_of(inst.operand_word(k + 1));
        // A loop header's terminator may be read in the body block.
        if (def_block_[id] != use || (header && i == blk.terminator)) cross[id] = 1;
      }
    }
  }
  // Value parameters: loaded at the entry.
  for (InstrIndex pi : f.parameters) {
    const Instruction& p = sm_.instructions[pi];
    if (ids_[p.result_id].kind != IdValue::Kind::None) continue;
    const ir::VariableId v(ids_[p.result_id].index);
    auto r = b_.load(v);
    if (!r) {
      fail(p, r.error());
      return error_;
    }
    ids_[p.result_id] = IdValue{Kind::Register, r->index()};
    scope_push(*r);
  }
  // Locals (all in the first block, §2.4) and phi variables.
  for (BlockIndex bi = 0; bi < f.blocks.size() && !failed(); ++bi) {
    const Block& blk = f.blocks[bi];
    for (InstrIndex i = blk.label_index + 1; i < blk.terminator; ++i) {
      const Instruction& inst = sm_.instructions[i];
      if (inst.opcode == spv::Op::OpVariable) {
        const ir::TypeId pt = type(inst.type_id);
        if (!pt.valid()) break;
        if (m_.type(pt).kind != ir::TypeKind::Pointer) {
          fail(inst, "the result type of a variable is not a pointer");
          break;
        }
        if (m_.type(pt).storage != ir::StorageClass::Function) {
          fail(inst, "a variable inside a function that is not of Function storage");
          break;
        }
        std::string name = name_of(inst.result_id);
        if (name.empty()) name = fmt::format("v{}", inst.result_id);
        const ir::VariableId v = local(m_.type(pt).element, name, precision_of(inst.result_id));
        if (inst.operands.size() > 3) {
          const IdValue& iv = ids_[std::min<std::uint32_t>(inst.operand_word(3), sm_.bound - 1)];
          if (iv.kind == Kind::Constant) m_.variable(v).initializer = ir::ConstantId(iv.index);
          else fail(inst, "an initializer that is not a constant");
        }
        ids_[inst.result_id] = IdValue{Kind::Variable, v.index()};
      } else if (inst.opcode == spv::Op::OpPhi) {
        const ir::TypeId t = type(inst.type_id);
        if (!t.valid()) break;
        const ir::TypeKind k = m_.type(t).kind;
        // Neither is Shader-capability SPIR-V: spirv-val refuses an OpPhi of
        // pointers without VariablePointers(StorageBuffer) and an OpPhi of
        // images, samplers or sampled images outright.
        if (k == ir::TypeKind::Pointer) {
          fail(inst, "an OpPhi of pointers needs the VariablePointers capability, which the reader does not support");
          break;
        }
        if (k == ir::TypeKind::Image || k == ir::TypeKind::Sampler || k == ir::TypeKind::SampledImage) {
          fail(inst, "an OpPhi of images, samplers or sampled images is not valid SPIR-V");
          break;
        }
        phi_var_[inst.result_id] = local(t, fmt::format("phi{}", inst.result_id), precision_of(inst.result_id));
      }
    }
  }
  // Spill variables for values used in other blocks, made lazily by define().
  spill_cross_ = std::move(cross);
  if (!failed()) {
    // Structural dominance finds premerges; the rules (cfg/,
    // docs/spirv-cfg.md) say why the walk could not place a block, when
    // one is broken.
    const cfg::FunctionCfg rules = cfg::analyze(sm_, f);
    Walk walk(*this, f, fid, rules);
    walk.run(entry);
    if (failed()) {
      if (!rules.valid()) {
        const cfg::Violation& v = rules.violations().front();
        error_->message += fmt::format(" [{}: {}]", v.rule, v.message);
      }
    }
  }
  // Reset the per-function tables.
  for (Id r : touched) {
    def_block_[r] = kNone;
    spill_[r] = ir::VariableId();
    phi_var_[r] = ir::VariableId();
  }
  for (ir::RegisterId r : scope_) visible_[r.index()] = 0;
  scope_.clear();
  constructs_.clear();
  switches_.clear();
  fn_ = nullptr;
  if (failed()) return error_;
  return std::nullopt;
}

}  // namespace sluice::spirv_in::detail
