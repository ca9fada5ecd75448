// Shrinking the module's variable and function tables. The tables are
// append-only (ir/module.h), and outputs emit every entry, so removing a
// variable or function means rebuilding the module without it.
//
// Algorithm: a new module receives the types, constants, registers, source
// files and locations in their original order — interning them in order
// gives every one its old id back — then the kept variables and functions,
// renumbered, with every variable and function operand, declaration,
// parameter and global rewritten through the renumbering. Linear.
#pragma once

#include <vector>

#include "ir/module.h"

namespace sluice::transform {

// Variables still needed: globals, and the parameters, reachable
// declarations and operands of the kept functions — less those marked in
// `drop_variable`.
std::vector<bool> variables_in_use(const ir::Module& m, const std::vector<bool>& keep_function,
                                   const std::vector<bool>& drop_variable);

// Rebuilds `m` with only the marked variables and functions. Returns false
// (changing nothing) when every entry is marked.
bool compact_module(ir::Module& m, const std::vector<bool>& keep_variable, const std::vector<bool>& keep_function);

}  // namespace sluice::transform
