#include "ir/stage_interface.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <vector>

namespace sluice::ir {

bool is_per_vertex_array(const Module& m, const Variable& v) {
  if (!v.type.valid() || v.type.index() >= m.type_count()) return false;
  const Type& pointer = m.type(v.type);
  if (pointer.kind != TypeKind::Pointer || v.decorations.patch) return false;
  if (!pointer.element.valid() || m.type(pointer.element).kind != TypeKind::Array) return false;
  switch (m.shader().stage) {
    case ShaderStage::Geometry:
    case ShaderStage::TessEvaluation: return pointer.storage == StorageClass::Input;
    case ShaderStage::TessControl:
      return pointer.storage == StorageClass::Input || pointer.storage == StorageClass::Output;
    default: return false;
  }
}

TypeId location_type(const Module& m, const Variable& v) {
  const TypeId pointee = m.type(v.type).element;
  return is_per_vertex_array(m, v) ? m.type(pointee).element : pointee;
}

std::uint32_t location_slots(const Module& m, TypeId t) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint32_t>::max();
  // Explicit stack of (type, multiplier): nested arrays and structs of any
  // depth without native recursion.
  std::uint64_t total = 0;
  std::vector<std::pair<TypeId, std::uint64_t>> stack{{t, 1}};
  while (!stack.empty() && total < kMax) {
    const auto [id, times] = stack.back();
    stack.pop_back();
    if (!id.valid() || id.index() >= m.type_count()) continue;
    const Type& ty = m.type(id);
    switch (ty.kind) {
      // A dvec3 or dvec4 takes two locations (GLSL 4.60 §4.4.1.1); a
      // matrix one per column.
      case TypeKind::Vector:
        total += times * (ty.element.valid() && ty.element.index() < m.type_count() &&
                                  m.type(ty.element).width == 64 && ty.count > 2
                              ? 2
                              : 1);
        break;
      case TypeKind::Matrix: stack.emplace_back(ty.element, std::min<std::uint64_t>(times * ty.count, kMax)); break;
      case TypeKind::Array: stack.emplace_back(ty.element, std::min<std::uint64_t>(times * ty.count, kMax)); break;
      case TypeKind::Struct:
        for (const StructMember& member : ty.members) stack.emplace_back(member.type, times);
        break;
      default: total += times; break;
    }
  }
  return static_cast<std::uint32_t>(std::min(total, kMax));
}

namespace {

bool is_built_in_block(const Module& m, TypeId t) {
  while (t.valid() && t.index() < m.type_count() && m.type(t).kind == TypeKind::Array) t = m.type(t).element;
  if (!t.valid() || t.index() >= m.type_count()) return false;
  const Type& ty = m.type(t);
  return ty.kind == TypeKind::Struct && !ty.members.empty() && !ty.members.front().built_in.empty();
}

// The components a location of `t` uses from `first`: the vector (or
// scalar) width of an array's or matrix's innermost column; all four for
// structs.
std::uint8_t component_mask(const Module& m, TypeId t, std::uint32_t first) {
  while (t.valid() && t.index() < m.type_count() && m.type(t).kind == TypeKind::Array) t = m.type(t).element;
  if (!t.valid() || t.index() >= m.type_count()) return 0xf;
  const Type* ty = &m.type(t);
  if (ty->kind == TypeKind::Matrix) ty = &m.type(ty->element);
  // Components of 32 bits: a double takes two (a dvec3 or dvec4 spills
  // into a second location; all four count then).
  std::uint32_t width = 0;
  if (ty->kind == TypeKind::Scalar) width = ty->width == 64 ? 2 : 1;
  else if (ty->kind == TypeKind::Vector) width = ty->count * (m.type(ty->element).width == 64 ? 2 : 1);
  else return 0xf;
  if (width > 4) return 0xf;
  if (first >= 4) return 0;
  return static_cast<std::uint8_t>(((1u << std::min(width, 4u - first)) - 1) << first);
}

}  // namespace

std::optional<LocationUse> location_use(const Module& m, VariableId id) {
  const Variable& v = m.variable(id);
  if (!v.decorations.location || !v.decorations.built_in.empty()) return std::nullopt;
  if (!v.type.valid() || v.type.index() >= m.type_count() || m.type(v.type).kind != TypeKind::Pointer)
    return std::nullopt;
  const StorageClass storage = m.type(v.type).storage;
  if (storage != StorageClass::Input && storage != StorageClass::Output) return std::nullopt;
  const TypeId t = location_type(m, v);
  if (is_built_in_block(m, t)) return std::nullopt;
  LocationUse use;
  use.variable = id;
  use.storage = storage;
  use.index = v.decorations.index.value_or(0);
  use.patch = v.decorations.patch;
  use.first = *v.decorations.location;
  use.count = location_slots(m, t);
  use.components = component_mask(m, t, v.decorations.component.value_or(0));
  return use;
}

std::optional<LocationOverlap> find_location_overlap(const Module& m) {
  std::vector<LocationUse> uses;
  for (VariableId id : m.globals())
    if (auto use = location_use(m, id); use && use->count > 0) uses.push_back(*use);
  auto space = [](const LocationUse& u) { return std::tuple(u.storage, u.index, u.patch); };
  std::stable_sort(uses.begin(), uses.end(), [&](const LocationUse& a, const LocationUse& b) {
    return std::tuple(space(a), a.first) < std::tuple(space(b), b.first);
  });
  // Every use still open contains the current use's first location; among
  // valid uses at most four share one (a component each), so this stays
  // linear until the first overlap.
  std::vector<const LocationUse*> open;
  for (std::size_t i = 0; i < uses.size(); ++i) {
    const LocationUse& u = uses[i];
    if (i > 0 && space(uses[i - 1]) != space(u)) open.clear();
    std::erase_if(open, [&](const LocationUse* o) { return o->first + o->count <= u.first; });
    for (const LocationUse* o : open)
      if (o->components & u.components) {
        const bool o_first = o->variable.index() < u.variable.index();
        return LocationOverlap{o_first ? o->variable : u.variable, o_first ? u.variable : o->variable, u.first};
      }
    open.push_back(&u);
  }
  return std::nullopt;
}

bool has_member_locations(const Module& m, TypeId t) {
  const Type* ty = &m.type(t);
  while (ty->kind == TypeKind::Array) ty = &m.type(ty->element);
  return ty->kind == TypeKind::Struct && ty->is_block &&
         std::any_of(ty->members.begin(), ty->members.end(), [](const StructMember& mem) { return mem.location; });
}

}  // namespace sluice::ir
