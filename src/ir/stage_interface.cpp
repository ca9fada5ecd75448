#include "ir/stage_interface.h"

#include <algorithm>

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

bool has_member_locations(const Module& m, TypeId t) {
  const Type* ty = &m.type(t);
  while (ty->kind == TypeKind::Array) ty = &m.type(ty->element);
  return ty->kind == TypeKind::Struct && ty->is_block &&
         std::any_of(ty->members.begin(), ty->members.end(), [](const StructMember& mem) { return mem.location; });
}

}  // namespace sluice::ir
