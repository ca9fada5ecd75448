// Where a pointer points, and who else can see that memory: the one model
// the memory passes share (unused-variables, dead-stores,
// uninitialized-loads, forward-stores, cse, loop-exit-in-header) instead of
// each following pointers back to their variables and sorting storage
// classes on its own.
//
// A pointer in the IR is a variable or the result of an Access chain
// (OpcodeFamily::Access, whose operand 0 is the pointer it indexes into);
// its root is the variable at the start of the chain. Memory kinds follow
// the storage class (GLSL 4.60 §4.3, SPIR-V 1.6 §2.18 "Storage Classes"):
// Function and Private memory belongs to one invocation; Input, Uniform,
// PushConstant and UniformConstant memory no invocation writes; the rest
// (outputs, buffers, workgroup memory) others write or observe. A volatile
// variable is always Shared: something outside the shader may change it.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace sluice::transform {

enum class MemoryKind : std::uint8_t {
  Invocation,  // Function, Private: this invocation alone reads and writes it
  ReadOnly,    // Input, Uniform, PushConstant, UniformConstant: constant for the invocation
  Shared,      // everything else, and volatile variables
};

MemoryKind memory_kind(const ir::Module& m, ir::VariableId v);
inline bool is_invocation_memory(const ir::Module& m, ir::VariableId v) {
  return memory_kind(m, v) == MemoryKind::Invocation;
}

// By VariableId: whether some function takes the variable as a parameter
// (its caller reads what the callee writes).
std::vector<bool> parameter_variables(const ir::Module& m);

// Operand k of `inst` is the pointer an Access chain indexes into: the
// chain's result has the same root, and whoever uses the result uses it.
inline bool is_chain_base(const ir::Instruction& inst, std::size_t k) {
  return k == 0 && ir::info(inst.opcode).family == ir::OpcodeFamily::Access;
}

class PointerRoots {
 public:
  // One pre-order walk over every function with a body: a pointer
  // register is defined before it is used, so each Access result's root
  // is known when the walk reaches it. Linear in the module.
  explicit PointerRoots(const ir::Module& m);

  // The variable `pointer` points into: the variable itself, or the root
  // of an Access chain's result; invalid for any other operand.
  ir::VariableId root(ir::Operand pointer) const {
    if (pointer.is_variable() && pointer.value() < variable_count_) return pointer.as_variable();
    if (pointer.is_register() && pointer.value() < root_.size()) return root_[pointer.value()];
    return {};
  }

 private:
  std::uint32_t variable_count_ = 0;
  std::vector<ir::VariableId> root_;  // by register: the variable an Access result points into
};

}  // namespace sluice::transform
