// The type each built-in variable must have, as the SPIR-V environment of
// Vulkan states them (Vulkan spec §15.9 "Built-In Variables": e.g.
// LocalInvocationId "must be declared as a three-component vector of 32-bit
// integer values", VUID-LocalInvocationId-LocalInvocationId-04283), so that
// IR the validator accepts gives SPIR-V spirv-val accepts. Per-vertex
// arrays (ir/stage_interface.h) are checked by their element.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/module.h"

namespace sluice::ir {

// Why `t` cannot hold the built-in `name` ("a 3-component vector of 32-bit
// integers"), or nothing when it can or the built-in has no rule here.
std::optional<std::string> built_in_type_problem(const Module& m, std::string_view name, TypeId t);

}  // namespace sluice::ir
