// Dominance in the block tree, for registers and Function-storage variables.
//
// A definition dominates a use when it comes earlier in the same block, or
// in a block that dominates the use's block: an earlier block of the same
// chain or of an enclosing chain (the divergent block that owns a sub-block
// chain dominates all of that chain). Sibling sub-blocks (If true / false,
// loop condition / body / continue, switch cases) never dominate each other.
//
// The tree walk (structure_checks.cpp) visits a block, then each of its
// sub-block chains in turn, then its merge block. Scopes keeps the
// registers and variables defined since the start of every open chain on a
// stack; when a chain ends they stop being visible. So "visible now" is
// exactly "dominates the walk's position", tested in O(1) per use.
#pragma once

#include <cstdint>
#include <vector>

#include "validator/context.h"

namespace sluice::validator::detail {

class Scopes {
 public:
  struct Mark {
    std::size_t registers = 0;
    std::size_t variables = 0;
  };

  explicit Scopes(Context& ctx) : ctx_(ctx) {}

  Mark mark() const { return {registers_.size(), variables_.size()}; }
  // Ends the scope opened at `mark`: what was defined since is invisible again.
  void release(Mark mark);

  // Both take in-range ids (the caller reports out-of-range ones).
  void define_register(ir::RegisterId r, const Where& where);
  void use_register(ir::RegisterId r, const Where& where);
  // A block's declaration of a local variable.
  void declare_variable(ir::VariableId v, const Where& where);
  void use_variable(ir::VariableId v, const Where& where);

 private:
  Context& ctx_;
  std::vector<ir::RegisterId> registers_;
  std::vector<ir::VariableId> variables_;
};

}  // namespace sluice::validator::detail
