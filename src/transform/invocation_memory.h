// Shared by the passes on memory only one invocation sees (dead-stores,
// uninitialized-loads, forward-stores, lower-increments): which variables
// are parameters, which are Function or Private memory.
#pragma once

#include <vector>

#include "ir/module.h"

namespace sluice::transform {

// By VariableId: whether some function takes the variable as a parameter.
std::vector<bool> parameter_variables(const ir::Module& m);

// A Function-storage or Private variable that is not volatile: memory no
// other invocation and no interface can see.
bool is_invocation_memory(const ir::Module& m, ir::VariableId v);

}  // namespace sluice::transform
