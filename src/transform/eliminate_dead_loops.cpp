// Dead-loop elimination (what spirv-opt's aggressive dead-code elimination
// does to a loop with no live code): a Loop or DoLoop whose only effects
// are writes to Function locals or Private globals that nothing outside
// the loop reads, and whose registers nothing outside it uses, is replaced
// by a jump to its merge block. Like spirv-opt (and C++'s forward-progress
// rule), this assumes the loop terminates: a loop with no observable
// effect that never ends is a hang no caller can rely on. Kept: loops with
// any other side effect (outputs, buffers, images, atomics, barriers,
// calls, discards), with a Return or a jump past their merge block, with a
// merge input, or writing a parameter (the caller reads it).
//
// Algorithm: compute_block_contexts() gives each block its innermost loop;
// only innermost loops are candidates (their blocks are disjoint, so one
// walk over the function's blocks sorts every instruction into at most one
// candidate); an outer loop becomes innermost, and a candidate, in the next
// round of -O1's fixpoint once its inner loops are gone. One walk over the
// module counts the reads of every variable (pointer_roots.h: a use other
// than a Store's target or an Access chain's base); a candidate survives
// when every variable it writes is read only inside it and no register it
// defines is used outside it. Linear.
#include <unordered_map>

#include "ir/operands.h"
#include "ir/structure.h"
#include "ir/traversal.h"
#include "transform/passes.h"
#include "transform/pointer_roots.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

class DeadLoops {
 public:
  explicit DeadLoops(Module& m) : m_(m), roots_(m), reads_(m.variable_count()), parameter_(parameter_variables(m)) {}

  PassResult run() {
    for (std::uint32_t i = 0; i < m_.function_count(); ++i) {
      const Function& f = m_.function(FunctionId(i));
      if (f.entry.valid()) visit(f, [&](const BlockVisit&, const Block& b) {
          for (const Instruction& inst : b.instructions) count_reads(inst);
          return VisitAction::VisitSubBlocks;
        });
    }
    bool changed = false;
    for (std::uint32_t i = 0; i < m_.function_count(); ++i)
      if (m_.function(FunctionId(i)).entry.valid()) changed = function(FunctionId(i)) || changed;
    return changed;
  }

 private:
  void count_reads(const Instruction& inst) {
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      const VariableId v = roots_.root(o);
      if (!v.valid() || (k == 0 && inst.opcode == Opcode::Store) || is_chain_base(inst, k)) return;
      ++reads_[v.index()];
    });
  }

  struct Candidate {
    bool dead = true;
    std::unordered_map<std::uint32_t, std::uint32_t> reads;  // variable -> reads inside the loop
    std::vector<VariableId> writes;
  };

  // The variable a write inside a loop may touch, or invalid if the write
  // is an effect others can see.
  VariableId private_write(const Instruction& inst) const {
    if (inst.operands.empty()) return {};
    const VariableId v = roots_.root(inst.operands[0]);
    if (!v.valid() || !is_invocation_memory(m_, v) || parameter_[v.index()]) return {};
    return v;
  }

  bool function(FunctionId fid) {
    Function& f = m_.function(fid);
    const std::vector<BlockContext> ctx = compute_block_contexts(f);
    std::unordered_map<std::uint32_t, Candidate> loops;  // innermost Loop/DoLoop block -> what it does
    std::vector<BlockId> order;
    visit(f, [&](const BlockVisit& v, const Block& b) {
      order.push_back(v.id);
      const auto op = b.terminator_opcode();
      if (op && (*op == Opcode::Loop || *op == Opcode::DoLoop)) {
        loops.try_emplace(v.id.index());
        if (ctx[v.id.index()].loop.valid()) {
          auto [it, fresh] = loops.try_emplace(ctx[v.id.index()].loop.index());
          it->second.dead = false;  // has an inner loop: not innermost
        }
      }
      return VisitAction::VisitSubBlocks;
    });
    if (loops.empty()) return false;
    std::unordered_map<std::uint32_t, std::uint32_t> defined_in;  // register -> its loop block
    for (BlockId b : order) {
      const BlockContext& c = ctx[b.index()];
      const auto it = c.loop.valid() ? loops.find(c.loop.index()) : loops.end();
      Candidate* loop = it == loops.end() ? nullptr : &it->second;
      for (const Instruction& inst : f.block(b).instructions) {
        // A register used outside the loop that defines it keeps that loop.
        for_each_operand(inst, [&](const Operand& o, std::size_t) {
          if (!o.is_register()) return;
          const auto d = defined_in.find(o.value());
          if (d != defined_in.end() && (!c.loop.valid() || d->second != c.loop.index())) loops[d->second].dead = false;
        });
        if (!loop || !loop->dead) continue;
        if (inst.result.valid()) defined_in[inst.result.index()] = c.loop.index();
        note(inst, c, f, *loop);
      }
    }
    bool changed = false;
    for (auto& [index, loop] : loops) {
      if (!loop.dead) continue;
      for (VariableId v : loop.writes) {
        const auto r = loop.reads.find(v.index());
        if (reads_[v.index()] != (r == loop.reads.end() ? 0 : r->second)) loop.dead = false;
      }
      Block& x = f.block(BlockId(index));
      if (!loop.dead || !x.merge.valid() || f.block(x.merge).merge_input.valid()) continue;
      Block discarded;
      move_structure(x, discarded);
      x.instructions.back() = Instruction{};
      x.instructions.back().opcode = Opcode::NextBlock;
      x.merge = discarded.merge;
      changed = true;
    }
    if (changed) compact_blocks(f);
    return changed;
  }

  // One instruction inside the innermost loop `loop`.
  void note(const Instruction& inst, const BlockContext& c, const Function& f, Candidate& loop) {
    const OpcodeInfo& oi = info(inst.opcode);
    switch (inst.opcode) {
      case Opcode::Continue:
      case Opcode::LoopIf:
      case Opcode::Merge:
      case Opcode::If:
      case Opcode::Switch:
      case Opcode::NextBlock:
      case Opcode::Passthrough: return;
      case Opcode::Break:
        // Out of this loop (to its merge block) or of a switch inside it.
        if (!c.breaks_from_switch && c.break_target != f.block(c.loop).merge) loop.dead = false;
        return;
      case Opcode::Store: {
        const VariableId v = private_write(inst);
        if (v.valid()) loop.writes.push_back(v);
        else loop.dead = false;
        return;
      }
      default: break;
    }
    if (is_increment(inst.opcode)) {
      const VariableId v = private_write(inst);
      if (!v.valid()) {
        loop.dead = false;
        return;
      }
      loop.writes.push_back(v);
      ++loop.reads[v.index()];  // an increment reads too (count_reads counted it)
      return;
    }
    if (oi.has_side_effects || oi.family == OpcodeFamily::Control || inst.opcode == Opcode::Call) {
      loop.dead = false;
      return;
    }
    for_each_operand(inst, [&](const Operand& o, std::size_t k) {
      const VariableId v = roots_.root(o);
      if (v.valid() && !is_chain_base(inst, k)) ++loop.reads[v.index()];
    });
  }

  Module& m_;
  const PointerRoots roots_;
  std::vector<std::uint32_t> reads_;
  std::vector<bool> parameter_;
};

}  // namespace

PassResult eliminate_dead_loops(Module& m) { return DeadLoops(m).run(); }

}  // namespace sluice::transform
