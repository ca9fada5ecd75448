// Interface facts shared by the declarations and the names: what a global
// variable holds, the locations a type occupies, and the Vulkan
// assignment of missing locations and bindings (as glslangValidator's
// --auto-map-locations / --auto-map-bindings would choose them).
#include "output/glsl/interface.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "ir/stage_interface.h"
#include "ir/typing.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {

using ir::StorageClass;
using ir::TypeId;
using ir::TypeKind;
using ir::VariableId;

TypeId pointee_of(const EmitContext& ctx, const ir::Variable& v) {
  if (!v.type.valid() || v.type.index() >= ctx.m.type_count()) return {};
  const ir::Type& t = ctx.m.type(v.type);
  return t.kind == TypeKind::Pointer ? t.element : TypeId{};
}

StorageClass storage_of(const EmitContext& ctx, const ir::Variable& v) { return ctx.m.type(v.type).storage; }

// The block struct a variable holds (directly or as an array of blocks).
TypeId block_type_of(const EmitContext& ctx, TypeId pointee) {
  const TypeId e = innermost_element(ctx, pointee);
  if (!e.valid() || e.index() >= ctx.m.type_count()) return {};
  const ir::Type& t = ctx.m.type(e);
  return t.kind == TypeKind::Struct && t.is_block ? e : TypeId{};
}

// Interface locations a type occupies (GLSL 4.50 §4.4.1: one per vector,
// one per matrix column, arrays and structs add up).
bool holds_integers(const EmitContext& ctx, TypeId t) {
  // Doubles too: like integers they are never interpolated (GLSL 4.60
  // §4.3.4: a double fragment input must be flat).
  const TypeId e = innermost_element(ctx, t);
  const auto k = ir::component_kind(ctx.m, e);
  if (k) return *k != ir::ScalarKind::Float || ir::is_double_like(ctx.m, e);
  if (e.valid() && ctx.m.type(e).kind == TypeKind::Struct)
    for (const auto& mem : ctx.m.type(e).members)
      if (holds_integers(ctx, mem.type)) return true;
  return false;
}

// A descriptor: a block or an opaque variable (or an array of them).
// Structs holding samplers are not; Vulkan GLSL gives them no binding.
bool is_resource(const EmitContext& ctx, const ir::Variable& v) {
  const StorageClass s = storage_of(ctx, v);
  if (s == StorageClass::StorageBuffer) return true;
  if (s != StorageClass::Uniform && s != StorageClass::UniformConstant) return false;
  const TypeId p = pointee_of(ctx, v);
  return block_type_of(ctx, p).valid() || is_opaque(ctx, innermost_element(ctx, p));
}

bool is_user_varying(const EmitContext& ctx, VariableId id) {
  const ir::Variable& v = ctx.m.variable(id);
  const StorageClass s = storage_of(ctx, v);
  if (!(s == StorageClass::Input || s == StorageClass::Output) || !v.decorations.built_in.empty() ||
      ctx.variable_forms[id.index()] == VariableForm::BuiltInBlock)
    return false;
  // gl_in[] and gl_out[]: arrays of a block of built-ins.
  const TypeId bt = block_type_of(ctx, pointee_of(ctx, v));
  return !bt.valid() || ctx.m.type(bt).members.empty() || ctx.m.type(bt).members[0].built_in.empty();
}

// Refuses user inputs (or outputs) whose locations overlap, which GLSL
// cannot declare (glslang: "overlapping use of location"; glslang's
// automatic mapping can leave such IR, spv.430.vert: moving one would
// change the interface); then, in Vulkan, gives those without a location
// the lowest free range, and resources without a binding the next free one
// in their set. Outputs of another `index` (dual-source blending) are apart,
// and so are variables that share a location through `component` (packing;
// glslang itself checks that their components do not overlap).
std::vector<ir::Decorations> assign_interface_slots(EmitContext& ctx) {
  const ir::Module& m = ctx.m;
  std::vector<ir::Decorations> out;
  for (VariableId id : m.globals()) out.push_back(m.variable(id).decorations);
  using LocationSpace = std::pair<StorageClass, std::uint32_t>;  // storage, index
  struct LocationUser {
    VariableId variable;
    bool has_component = false;
  };
  std::map<LocationSpace, std::map<std::uint32_t, LocationUser>> used_locations;
  std::map<std::uint32_t, std::set<std::uint32_t>> used_bindings;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const VariableId id = m.globals()[i];
    const ir::Variable& v = m.variable(id);
    // The locations it takes: its own range, or its block members' ones.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;  // first, count
    if (is_user_varying(ctx, id) && out[i].location) {
      ranges.emplace_back(*out[i].location, ir::location_slots(m, ir::location_type(m, v)));
    } else if (is_user_varying(ctx, id) && ir::has_member_locations(m, pointee_of(ctx, v))) {
      for (const ir::StructMember& mem : m.type(ir::location_type(m, v)).members)
        ranges.emplace_back(*mem.location, ir::location_slots(m, mem.type));
    }
    for (const auto& [first, n] : ranges) {
      auto& used = used_locations[{storage_of(ctx, v), out[i].index.value_or(0)}];
      for (std::uint32_t k = 0; k < n; ++k) {
        const auto other = used.find(first + k);
        if (other != used.end() && !out[i].component && !other->second.has_component) {
          ctx.fail(fmt::format("the {}s '{}' and '{}' overlap at location {}, which GLSL cannot declare",
                               storage_of(ctx, v) == StorageClass::Input ? "input" : "output",
                               ctx.variable_names[other->second.variable.index()], ctx.variable_names[id.index()],
                               other->first));
          return out;
        }
        used.emplace(first + k, LocationUser{id, out[i].component.has_value()});
      }
    }
    if (is_resource(ctx, v) && out[i].binding) used_bindings[out[i].set.value_or(0)].insert(*out[i].binding);
  }
  if (!ctx.vulkan) return out;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const VariableId id = m.globals()[i];
    const ir::Variable& v = m.variable(id);
    if (is_user_varying(ctx, id) && !out[i].location && !ir::has_member_locations(m, pointee_of(ctx, v))) {
      auto& used = used_locations[{storage_of(ctx, v), out[i].index.value_or(0)}];
      const std::uint32_t n = ir::location_slots(m, ir::location_type(m, v));
      std::uint32_t start = 0;
      for (;;) {
        bool free = true;
        for (std::uint32_t k = 0; k < n && free; ++k) free = !used.contains(start + k);
        if (free) break;
        ++start;
      }
      for (std::uint32_t k = 0; k < n; ++k) used.emplace(start + k, LocationUser{id});
      out[i].location = start;
    }
    if (is_resource(ctx, v) && !out[i].binding) {
      auto& used = used_bindings[out[i].set.value_or(0)];
      std::uint32_t b = 0;
      while (used.contains(b)) ++b;
      used.insert(b);
      out[i].binding = b;
    }
  }
  return out;
}

}  // namespace sluice::glsl_out
