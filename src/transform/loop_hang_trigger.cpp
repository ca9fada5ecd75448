// See loop_hang_trigger.h.
//
// Algorithm: the scope model (ir/structure.h) gives each block its
// innermost loop. The loops form a tree, numbered in pre-order so that
// "inside loop L" is an interval test. Every instruction with side effects
// records, for the variable its pointer operands point into, the number of
// its innermost loop (sorted per variable, so "does L write v" is a binary
// search). Then each Break that leaves its loop walks up through the Ifs
// that enclose it inside the loop (each If walked once), and each If's
// condition is traced back through the registers defined in that loop
// (each register traced once: it belongs to one innermost loop) looking for
// a float Load from a variable the loop writes. Linear up to the sorting.
#include "transform/loop_hang_trigger.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir/structure.h"
#include "ir/typing.h"

namespace sluice::transform {

using namespace ir;

namespace {

bool is_loop(const Block& b) {
  const Instruction* t = b.terminator();
  return t && (t->opcode == Opcode::Loop || t->opcode == Opcode::DoLoop);
}

class HangTrigger {
 public:
  HangTrigger(const Module& m, FunctionId fid, const PointerRoots& roots)
      : m_(m), f_(m.function(fid)), roots_(roots), ctx_(compute_block_contexts(f_)) {}

  std::vector<bool> run(bool called_function) {
    number_loops();
    record_writes_and_definitions();
    std::vector<bool> prone(f_.blocks.size());
    std::vector<bool> walked(f_.blocks.size());
    for (std::uint32_t i = 0; i < f_.blocks.size(); ++i) {
      const Block& b = f_.blocks[i];
      const Instruction* t = b.terminator();
      if (!ctx_[i].reachable || !t || t->opcode != Opcode::Break || ctx_[i].breaks_from_switch) continue;
      const BlockId loop = ctx_[i].loop;
      if (!loop.valid() || prone[loop.index()]) continue;
      if (!called_function && !ctx_[loop.index()].loop.valid()) continue;  // not nested
      for (BlockId c = ctx_[i].construct; c.valid() && c != loop && !walked[c.index()];
           c = ctx_[c.index()].construct) {
        walked[c.index()] = true;
        const Instruction* test = f_.block(c).terminator();
        if (test && test->opcode == Opcode::If && !test->operands.empty() && reads_counter(test->operands[0], loop)) {
          prone[loop.index()] = true;
          break;
        }
      }
    }
    return prone;
  }

 private:
  // Pre-order numbers of the loop tree: L contains L' iff
  // first_[L] <= first_[L'] < end_[L].
  void number_loops() {
    const std::size_t n = f_.blocks.size();
    first_.assign(n, 0);
    end_.assign(n, 0);
    std::vector<std::vector<BlockId>> children(n + 1);  // [n]: the loops at the top level
    for (std::uint32_t i = 0; i < n; ++i)
      if (ctx_[i].reachable && is_loop(f_.blocks[i]))
        children[ctx_[i].loop.valid() ? ctx_[i].loop.index() : n].push_back(BlockId(i));
    std::uint32_t next = 0;
    struct Item {
      std::size_t node;
      std::size_t child;
    };
    std::vector<Item> stack{{n, 0}};
    while (!stack.empty()) {
      Item& top = stack.back();
      if (top.child == children[top.node].size()) {
        if (top.node < n) end_[top.node] = next;
        stack.pop_back();
        continue;
      }
      const std::size_t child = children[top.node][top.child++].index();
      first_[child] = next++;
      stack.push_back({child, 0});
    }
  }

  void record_writes_and_definitions() {
    for (std::uint32_t i = 0; i < f_.blocks.size(); ++i) {
      if (!ctx_[i].reachable) continue;
      const Block& b = f_.blocks[i];
      for (std::uint32_t k = 0; k < b.instructions.size(); ++k) {
        const Instruction& inst = b.instructions[k];
        if (inst.result.valid()) definitions_[inst.result.index()] = {BlockId(i), k};
        if (!info(inst.opcode).has_side_effects || !ctx_[i].loop.valid()) continue;
        for (const Operand& op : inst.operands)
          if (const VariableId v = roots_.root(op); v.valid())
            written_[v.index()].push_back(first_[ctx_[i].loop.index()]);
      }
    }
    for (auto& [v, loops] : written_) std::sort(loops.begin(), loops.end());
  }

  bool written_in(VariableId v, BlockId loop) const {
    const auto it = written_.find(v.index());
    if (it == written_.end()) return false;
    const auto at = std::lower_bound(it->second.begin(), it->second.end(), first_[loop.index()]);
    return at != it->second.end() && *at < end_[loop.index()];
  }

  // Whether `condition` depends, through registers defined in `loop`
  // itself, on a float Load of memory the loop writes.
  bool reads_counter(Operand condition, BlockId loop) {
    std::vector<std::uint32_t> work;
    auto push = [&](Operand op) {
      if (op.is_register() && traced_.insert(op.value()).second) work.push_back(op.value());
    };
    push(condition);
    while (!work.empty()) {
      const auto it = definitions_.find(work.back());
      work.pop_back();
      if (it == definitions_.end() || ctx_[it->second.block.index()].loop != loop) continue;
      const Instruction& inst = f_.block(it->second.block).instructions[it->second.index];
      if (inst.opcode == Opcode::Load && component_kind(m_, m_.reg(inst.result).type) == ScalarKind::Float) {
        const VariableId v = roots_.root(inst.operands[0]);
        if (v.valid() && written_in(v, loop)) return true;
      }
      for (const Operand& op : inst.operands) push(op);
    }
    return false;
  }

  struct Definition {
    BlockId block;
    std::uint32_t index;
  };

  const Module& m_;
  const Function& f_;
  const PointerRoots& roots_;
  const std::vector<BlockContext> ctx_;
  std::vector<std::uint32_t> first_, end_;                              // by BlockId of a loop
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> written_;  // variable -> first_ of writing loops
  std::unordered_map<std::uint32_t, Definition> definitions_;             // register -> where
  std::unordered_set<std::uint32_t> traced_;                              // registers already traced
};

}  // namespace

std::vector<bool> hang_prone_loops(const Module& m, FunctionId f, const PointerRoots& roots, bool entry_point) {
  return HangTrigger(m, f, roots).run(!entry_point);
}

}  // namespace sluice::transform
