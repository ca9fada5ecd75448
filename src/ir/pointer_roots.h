// Where a pointer points: the variable at the start of its Access chain.
//
// A pointer in the IR is a variable or the result of an Access chain
// (OpcodeFamily::Access, whose operand 0 is the pointer it indexes into);
// its root is the variable at the start of the chain. The memory passes
// (transform/pointer_roots.h) and the validator's rule on read-only
// variables share this one model.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace sluice::ir {

// Operand k of `inst` is the pointer an Access chain indexes into: the
// chain's result has the same root, and whoever uses the result uses it.
inline bool is_chain_base(const Instruction& inst, std::size_t k) {
  return k == 0 && info(inst.opcode).family == OpcodeFamily::Access;
}

class PointerRoots {
 public:
  // One pre-order walk over every function with a body: a pointer
  // register is defined before it is used, so each Access result's root
  // is known when the walk reaches it. Linear in the module.
  explicit PointerRoots(const Module& m);

  // The variable `pointer` points into: the variable itself, or the root
  // of an Access chain's result; invalid for any other operand.
  VariableId root(Operand pointer) const {
    if (pointer.is_variable() && pointer.value() < variable_count_) return pointer.as_variable();
    if (pointer.is_register() && pointer.value() < root_.size()) return root_[pointer.value()];
    return {};
  }

 private:
  std::uint32_t variable_count_ = 0;
  std::vector<VariableId> root_;  // by register: the variable an Access result points into
};

}  // namespace sluice::ir
