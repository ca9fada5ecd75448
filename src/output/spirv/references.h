// Reference checks that make the rest of the emitter memory-safe on
// malformed IR (references.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"

namespace sluice::spirv::detail {

// A message for the first dangling id or misshapen type, or nullopt. Also
// fills `callees` (per function, the functions it calls) from the same pass.
std::optional<std::string> check_references(const ir::Module& m, std::vector<std::vector<std::uint32_t>>& callees);

}  // namespace sluice::spirv::detail
