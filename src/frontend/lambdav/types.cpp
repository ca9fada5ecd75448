// λV type names and shapes (see types.h).
#include "frontend/lambdav/types.h"

#include <fmt/format.h>

#include "ir/typing.h"

namespace sluice::lambdav {

Shape shape_of(const ir::Module& m, ir::TypeId t) {
  Shape s;
  if (!t.valid() || t.index() >= m.type_count()) return s;
  const ir::Type& ty = m.type(t);
  auto kind = ir::component_kind(m, t);
  if (!kind) return s;
  const bool is_bool = *kind == ir::ScalarKind::Bool;
  const bool is_float = *kind == ir::ScalarKind::Float;
  switch (ty.kind) {
    case ir::TypeKind::Scalar:
      if (is_float) s.kind = Shape::Kind::Num;
      if (is_bool) s.kind = Shape::Kind::Bool;
      return s;
    case ir::TypeKind::Vector:
      if (is_float) s.kind = Shape::Kind::FloatVec;
      if (is_bool) s.kind = Shape::Kind::BoolVec;
      s.size = ty.count;
      return s;
    case ir::TypeKind::Matrix:
      if (is_float && m.type(ty.element).count == ty.count) {
        s.kind = Shape::Kind::Mat;
        s.size = ty.count;
      }
      return s;
    default:
      return s;
  }
}

std::string describe_type(const ir::Module& m, ir::TypeId t) {
  const Shape s = shape_of(m, t);
  switch (s.kind) {
    case Shape::Kind::Num: return "Num";
    case Shape::Kind::Bool: return "Bool";
    case Shape::Kind::FloatVec: return fmt::format("Vec({}, f)", s.size);
    case Shape::Kind::BoolVec: return fmt::format("Vec({}, b)", s.size);
    case Shape::Kind::Mat: return fmt::format("Mat({})", s.size);
    case Shape::Kind::Other: break;
  }
  return ir::describe_type(m, t);
}

}  // namespace sluice::lambdav
