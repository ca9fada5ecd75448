// λV's types on top of IR types. λV has Num (float), Bool, Vec(2..4, f|b)
// and Mat(2..4) (square float matrices); each is one IR type, so a λV value
// carries its IR TypeId. Rec τ and PureRec only exist while a rec-func body
// is lowered (values.h). These helpers classify types and spell them the
// way docs/lambdav.md does, for messages.
#pragma once

#include <cstdint>
#include <string>

#include "ir/module.h"

namespace sluice::lambdav {

// "Num", "Bool", "Vec(3, f)", "Vec(2, b)", "Mat(4)"; IR spelling otherwise.
std::string describe_type(const ir::Module& m, ir::TypeId t);

struct Shape {
  enum class Kind : std::uint8_t { Num, Bool, FloatVec, BoolVec, Mat, Other } kind = Kind::Other;
  std::uint32_t size = 1;  // vector size or matrix order; 1 for scalars
};
Shape shape_of(const ir::Module& m, ir::TypeId t);

inline bool is_float_scalar_or_vector(const Shape& s) {
  return s.kind == Shape::Kind::Num || s.kind == Shape::Kind::FloatVec;
}
inline bool is_bool_scalar_or_vector(const Shape& s) {
  return s.kind == Shape::Kind::Bool || s.kind == Shape::Kind::BoolVec;
}
inline bool is_scalar(const Shape& s) { return s.kind == Shape::Kind::Num || s.kind == Shape::Kind::Bool; }

}  // namespace sluice::lambdav
