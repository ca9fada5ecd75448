// Overwritten-store elimination (spirv-opt's local-single-block store
// elimination, the part that drops stores): a Store through pointer p is
// dead when a later Store in the same block goes through the same p (the
// same register or variable, so the same memory, whole) and nothing between
// them may read that memory. `i -= 3; i++;` in one block stores i twice;
// the first store goes, and with it what only it used (eliminate-dead-code
// removes that). eliminate-dead-stores drops stores into memory nothing
// reads at all; this one also drops stores into memory that is read, just
// not before it is written again.
//
// Memory: Function and Private variables (the invocation's own:
// transform::MemoryKind::Invocation) and Output variables (no other
// invocation reads them between two stores without a barrier; a geometry
// shader's EmitVertex reads them and is a side effect, below). Not
// volatile variables, buffers, workgroup memory or images, which other
// invocations or agents may observe.
//
// What may read the first store's memory: an operand read through
// (ir::reads_through: a Load) whose pointer is into the same variable (its
// root, pointer_roots.h: `v.x` overlaps `v`), and any instruction with side
// effects other than a Store (calls, barriers, atomics, increments,
// EmitVertex, image operations), which may read anything. Other
// instructions and accesses (address arithmetic) read no memory.
//
// Algorithm: one walk over each block's instructions with the block's
// pending stores (pointer -> the last Store through it, small: a linear
// search); a Store through a pending pointer marks the earlier Store dead, a
// read drops the pending stores into its variable, any other side effect
// drops all. Then the dead Stores are removed. Linear (pending entries are
// few; bounded by kPending).
#include <algorithm>

#include "transform/passes.h"
#include "transform/pointer_roots.h"

namespace sluice::transform {

using namespace ir;

namespace {

// The pending list stays small: a block that stores through more pointers
// than this forgets the oldest (a missed removal, never a wrong one).
constexpr std::size_t kPending = 16;

struct Pending {
  Operand pointer;
  VariableId root;
  std::uint32_t index;  // the Store's position in the block
};

bool overwritable(const Module& m, VariableId v) {
  if (!v.valid()) return false;
  if (memory_kind(m, v) == MemoryKind::Invocation) return true;
  const Variable& var = m.variable(v);
  return m.type(var.type).storage == StorageClass::Output && !var.decorations.volatile_;
}

}  // namespace

PassResult eliminate_overwritten_stores(Module& m) {
  const PointerRoots roots(m);
  bool changed = false;
  std::vector<Pending> pending;
  std::vector<std::uint32_t> dead;
  for (std::uint32_t fi = 0; fi < m.function_count(); ++fi) {
    Function& f = m.function(FunctionId(fi));
    if (!f.entry.valid()) continue;
    for (Block& block : f.blocks) {
      pending.clear();
      dead.clear();
      for (std::uint32_t i = 0; i < block.instructions.size(); ++i) {
        const Instruction& inst = block.instructions[i];
        if (inst.opcode == Opcode::Store && inst.operands.size() == 2) {
          const Operand p = inst.operands[0];
          const auto it = std::find_if(pending.begin(), pending.end(), [&](const Pending& e) { return e.pointer == p; });
          if (it != pending.end()) {
            dead.push_back(it->index);
            it->index = i;
            continue;
          }
          const VariableId root = roots.root(p);
          if (!overwritable(m, root)) continue;
          if (pending.size() == kPending) pending.erase(pending.begin());
          pending.push_back(Pending{p, root, i});
          continue;
        }
        if (info(inst.opcode).has_side_effects) {
          pending.clear();
          continue;
        }
        for (std::size_t k = 0; k < inst.operands.size(); ++k) {
          if (!reads_through(operand_role(inst.opcode, k))) continue;
          const VariableId root = roots.root(inst.operands[k]);
          std::erase_if(pending, [&](const Pending& e) { return !root.valid() || e.root == root; });
        }
      }
      if (dead.empty()) continue;
      std::sort(dead.begin(), dead.end());
      std::uint32_t next_dead = 0, out = 0;
      for (std::uint32_t i = 0; i < block.instructions.size(); ++i) {
        if (next_dead < dead.size() && dead[next_dead] == i) {
          ++next_dead;
          continue;
        }
        if (out != i) block.instructions[out] = std::move(block.instructions[i]);
        ++out;
      }
      block.instructions.resize(out);
      changed = true;
    }
  }
  return changed;
}

}  // namespace sluice::transform
