// Safe replace-all-uses; substitution.h explains the chaining and why the
// sweep never walks a list it modifies.
#include "transform/substitution.h"

#include "ir/operands.h"
#include "ir/traversal.h"

namespace sluice::transform {

using namespace ir;

Operand Substitution::resolve(Operand op) {
  if (!op.is_register()) return op;
  // First pass finds the end of the chain, second points every link at it.
  Operand end = op;
  while (end.is_register() && end.value() < to_.size() && has_[end.value()]) end = to_[end.value()];
  Operand cur = op;
  while (cur.is_register() && cur.value() < to_.size() && has_[cur.value()]) {
    const Operand next = to_[cur.value()];
    to_[cur.value()] = end;
    cur = next;
  }
  return end;
}

bool Substitution::replace(RegisterId from, Operand to) {
  const Operand target = resolve(to);
  if (target == Operand(from)) return false;
  if (from.index() >= to_.size()) {
    to_.resize(from.index() + 1);
    has_.resize(from.index() + 1);
  }
  if (has_[from.index()]) return false;  // a register is replaced once
  to_[from.index()] = target;
  has_[from.index()] = true;
  ++count_;
  return true;
}

std::size_t Substitution::apply(Function& f) {
  if (count_ == 0) return 0;
  std::size_t rewritten = 0;
  // visit() reads the tree; operands are overwritten in place.
  std::vector<BlockId> blocks;
  visit(f, [&](const BlockVisit& v, const Block&) {
    blocks.push_back(v.id);
    return VisitAction::VisitSubBlocks;
  });
  for (BlockId b : blocks) {
    for (Instruction& inst : f.block(b).instructions) {
      rewrite_operands(inst, [&](Operand op) {
        const Operand r = resolve(op);
        if (r != op) ++rewritten;
        return r;
      });
    }
  }
  return rewritten;
}

std::size_t Substitution::apply(Module& m) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) n += apply(m.function(FunctionId(i)));
  return n;
}

}  // namespace sluice::transform
