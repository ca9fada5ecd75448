// SPIR-V built-in names (Decorations::built_in, StructMember::built_in) as
// the gl_ variables GLSL spells them.
#pragma once

#include <string>
#include <string_view>

#include "output/glsl/context.h"

namespace sluice::glsl_out {

// The gl_ name of built-in `built_in` for a variable of storage class
// `storage`; fails (ctx.fail) and returns "" for built-ins the target
// cannot express. Adds the extensions some of them need.
std::string builtin_variable_name(EmitContext& ctx, std::string_view built_in, ir::StorageClass storage);

}  // namespace sluice::glsl_out
