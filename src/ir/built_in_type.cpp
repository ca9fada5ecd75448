#include "ir/built_in_type.h"

#include <array>

namespace sluice::ir {
namespace {

enum class Kind : std::uint8_t { Float, Integer, Bool };  // Integer: int or uint, 32-bit

struct Shape {
  std::string_view name;
  Kind kind;
  std::uint32_t components;  // 1 for a scalar
  bool array = false;        // an array of those (any length)
  std::uint32_t length = 0;  // when an array: its length, 0 = any
};

constexpr std::array<Shape, 36> kShapes = {{
    {"Position", Kind::Float, 4},
    {"PointSize", Kind::Float, 1},
    {"ClipDistance", Kind::Float, 1, true},
    {"CullDistance", Kind::Float, 1, true},
    {"VertexId", Kind::Integer, 1},
    {"InstanceId", Kind::Integer, 1},
    {"VertexIndex", Kind::Integer, 1},
    {"InstanceIndex", Kind::Integer, 1},
    {"BaseVertex", Kind::Integer, 1},
    {"BaseInstance", Kind::Integer, 1},
    {"DrawIndex", Kind::Integer, 1},
    {"PrimitiveId", Kind::Integer, 1},
    {"InvocationId", Kind::Integer, 1},
    {"Layer", Kind::Integer, 1},
    {"ViewportIndex", Kind::Integer, 1},
    {"FragCoord", Kind::Float, 4},
    {"PointCoord", Kind::Float, 2},
    {"FrontFacing", Kind::Bool, 1},
    {"SampleId", Kind::Integer, 1},
    {"SamplePosition", Kind::Float, 2},
    {"SampleMask", Kind::Integer, 1, true},
    {"FragDepth", Kind::Float, 1},
    {"HelperInvocation", Kind::Bool, 1},
    {"NumWorkgroups", Kind::Integer, 3},
    {"WorkgroupSize", Kind::Integer, 3},
    {"WorkgroupId", Kind::Integer, 3},
    {"LocalInvocationId", Kind::Integer, 3},
    {"GlobalInvocationId", Kind::Integer, 3},
    {"LocalInvocationIndex", Kind::Integer, 1},
    {"ViewIndex", Kind::Integer, 1},
    {"SubgroupSize", Kind::Integer, 1},
    {"SubgroupLocalInvocationId", Kind::Integer, 1},
    {"PatchVertices", Kind::Integer, 1},
    {"TessLevelOuter", Kind::Float, 1, true, 4},
    {"TessLevelInner", Kind::Float, 1, true, 2},
    {"TessCoord", Kind::Float, 3},
}};

std::string describe(const Shape& s) {
  std::string element = s.kind == Kind::Float ? "32-bit float" : s.kind == Kind::Integer ? "32-bit integer" : "bool";
  std::string what = s.components == 1 ? "a " + element : "a " + std::to_string(s.components) + "-component vector of " +
                                                              element + "s";
  if (!s.array) return what;
  return (s.length ? "an array of " + std::to_string(s.length) + " " : "an array of ") + what.substr(2) + "s";
}

bool scalar_fits(Kind k, ScalarKind s) {
  switch (k) {
    case Kind::Float: return s == ScalarKind::Float;
    case Kind::Integer: return s == ScalarKind::Int || s == ScalarKind::Uint;
    case Kind::Bool: return s == ScalarKind::Bool;
  }
  return false;
}

bool fits(const Module& m, const Shape& s, TypeId t) {
  if (!t.valid() || t.index() >= m.type_count()) return false;
  const Type* ty = &m.type(t);
  if (s.array) {
    if (ty->kind != TypeKind::Array && ty->kind != TypeKind::UnsizedArray) return false;
    if (s.length && (ty->kind != TypeKind::Array || ty->count != s.length)) return false;
    if (!ty->element.valid() || ty->element.index() >= m.type_count()) return false;
    ty = &m.type(ty->element);
  }
  if (s.components == 1) return ty->kind == TypeKind::Scalar && scalar_fits(s.kind, ty->scalar);
  if (ty->kind != TypeKind::Vector || ty->count != s.components) return false;
  if (!ty->element.valid() || ty->element.index() >= m.type_count()) return false;
  const Type& e = m.type(ty->element);
  return e.kind == TypeKind::Scalar && scalar_fits(s.kind, e.scalar);
}

}  // namespace

std::optional<std::string> built_in_type_problem(const Module& m, std::string_view name, TypeId t) {
  for (const Shape& s : kShapes)
    if (s.name == name) return fits(m, s, t) ? std::nullopt : std::optional<std::string>(describe(s));
  return std::nullopt;
}

}  // namespace sluice::ir
