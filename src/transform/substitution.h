// Safe replace-all-uses (the Slang IR's "Best Practices"): a pass records
// replacements while it walks, and applies them afterwards in one separate
// sweep, so replacing uses never walks a list that it is modifying.
//
// Replacements chain: after replace(r1, r2) and replace(r2, c5), r1 resolves
// to c5, so no use is ever left pointing at a register whose definition a
// later replacement removed (no stale references). resolve() follows the
// chain and shortens it (path compression), so a sweep stays linear however
// long the chains grow. A replacement that would close a cycle is refused.
#pragma once

#include <cstddef>
#include <vector>

#include "ir/module.h"

namespace sluice::transform {

class Substitution {
 public:
  Substitution() = default;

  // Uses of `from` become uses of `to` (after resolving `to`). Returns false,
  // recording nothing, when that would make `from` stand for itself or when
  // `from` was already replaced.
  bool replace(ir::RegisterId from, ir::Operand to);
  // The operand a use of `op` stands for now.
  ir::Operand resolve(ir::Operand op);
  bool replaced(ir::RegisterId r) const { return r.index() < has_.size() && has_[r.index()]; }
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }

  // Rewrites every operand of every instruction in the function's reachable
  // blocks. The instruction lists are only read and their operands
  // overwritten in place: no list changes length during the sweep. Returns
  // the number of operands rewritten.
  std::size_t apply(ir::Function& f);
  std::size_t apply(ir::Module& m);

 private:
  std::vector<ir::Operand> to_;
  std::vector<bool> has_;
  std::size_t count_ = 0;
};

}  // namespace sluice::transform
