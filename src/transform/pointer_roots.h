// Where a pointer points, and who else can see that memory: the one model
// the memory passes share (unused-variables, dead-stores,
// uninitialized-loads, forward-stores, cse, loop-exit-in-header) instead of
// each following pointers back to their variables and sorting storage
// classes on its own.
//
// Roots (the variable at the start of a pointer's Access chain) are
// ir/pointer_roots.h's, which the validator uses too. Memory kinds follow
// the storage class (GLSL 4.60 §4.3, SPIR-V 1.6 §2.18 "Storage Classes"):
// Function and Private memory belongs to one invocation; Input, Uniform,
// PushConstant and UniformConstant memory no invocation writes; the rest
// (outputs, buffers, workgroup memory) others write or observe. A volatile
// variable is always Shared: something outside the shader may change it.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"
#include "ir/pointer_roots.h"

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

using ir::is_chain_base;
using ir::PointerRoots;

}  // namespace sluice::transform
