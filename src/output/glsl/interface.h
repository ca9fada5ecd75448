// What the declarations and the naming both need to know about global
// variables: the type a variable holds, its block type, and (Vulkan) the locations and bindings the
// output gives variables that have none.
#pragma once

#include <vector>

#include "output/glsl/context.h"

namespace sluice::glsl_out {

ir::TypeId pointee_of(const EmitContext& ctx, const ir::Variable& v);  // invalid if not a pointer
ir::StorageClass storage_of(const EmitContext& ctx, const ir::Variable& v);
// The block struct a variable holds (directly or as an array of blocks), or invalid.
ir::TypeId block_type_of(const EmitContext& ctx, ir::TypeId pointee);
bool holds_integers(const EmitContext& ctx, ir::TypeId t);
// The decorations of m.globals(), with Vulkan's missing locations and
// bindings filled in; fails `ctx` where inputs or outputs overlap.
std::vector<ir::Decorations> assign_interface_slots(EmitContext& ctx);

}  // namespace sluice::glsl_out
