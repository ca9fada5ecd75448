// Folding of double (64-bit float) scalars and vectors. The 32-bit rules
// (fold_scalar.cpp) hold one 32-bit pattern per component, so doubles get
// their own evaluation here, in double and never through float:
// arithmetic (+, -, *, / and negation, correctly rounded binary64 as C++
// computes it: SPIR-V's FAdd, FSub, FMul on doubles, GLSL 4.60 §4.7.1),
// abs, min, max, comparisons, splats and concatenations, and conversions
// to and from double that are exact (float -> double, int -> double, and
// double -> float only when the double is a float; double -> int
// truncates, GLSL 4.60 §5.4.1, out of range is undefined).
//
// Algorithm: read every operand's components as doubles (or as the 32-bit
// scalars the conversions take), apply the rule per component with scalar
// operands splatted, refuse (nullopt) on NaN, Inf, division by zero or an
// inexact conversion, and intern the result through the module's tables.
// Matrices of doubles are not folded (left to the GPU).
#include <cmath>
#include <limits>
#include <vector>

#include "ir/typing.h"
#include "transform/fold.h"

namespace sluice::transform::fold {

using namespace ir;

namespace {

// One component: a double, or a 32-bit scalar of `kind`.
struct Component {
  double value = 0;  // the number it stands for (bools: 0 or 1)
  bool wide = false;
  ScalarKind kind = ScalarKind::Float;
};

// The components of a scalar or vector constant; nullopt for anything else
// and for non-finite floats.
std::optional<std::vector<Component>> components(const Module& m, ConstantId id) {
  if (!id.valid() || id.index() >= m.constant_count()) return std::nullopt;
  const Constant& c = m.constant(id);
  std::vector<ConstantId> scalars;
  const Type& t = m.type(c.type);
  if (t.kind == TypeKind::Scalar) scalars.push_back(id);
  else if (t.kind == TypeKind::Vector) scalars.assign(c.components.begin(), c.components.end());
  else return std::nullopt;
  std::vector<Component> out;
  for (ConstantId s : scalars) {
    if (!s.valid() || s.index() >= m.constant_count()) return std::nullopt;
    const Constant& sc = m.constant(s);
    const Type& st = m.type(sc.type);
    if (sc.is_composite() || st.kind != TypeKind::Scalar) return std::nullopt;
    Component k{0, st.width == 64, st.scalar};
    switch (st.scalar) {
      case ScalarKind::Float: k.value = k.wide ? sc.as_double() : static_cast<double>(sc.as_float()); break;
      case ScalarKind::Int: k.value = sc.as_int(); break;
      case ScalarKind::Uint: k.value = sc.as_uint(); break;
      case ScalarKind::Bool: k.value = sc.as_bool() ? 1 : 0; break;
    }
    if (!std::isfinite(k.value)) return std::nullopt;
    out.push_back(k);
  }
  return out;
}

// The constant of scalar type `st` holding `v`, or nullopt when `v` does
// not convert exactly (or, for ints, lies out of range after truncation).
std::optional<ConstantId> scalar(Module& m, TypeId st, double v) {
  if (!std::isfinite(v)) return std::nullopt;
  const Type& t = m.type(st);
  switch (t.scalar) {
    case ScalarKind::Float: {
      if (t.width == 64) return m.double_constant(v);
      const float f = static_cast<float>(v);
      if (static_cast<double>(f) != v) return std::nullopt;  // rounding: the GPU's mode is not ours
      return m.float_constant(f);
    }
    case ScalarKind::Int: {
      const double x = std::trunc(v);
      if (x < -2147483648.0 || x > 2147483647.0) return std::nullopt;
      return m.int_constant(static_cast<std::int32_t>(x));
    }
    case ScalarKind::Uint: {
      const double x = std::trunc(v);
      if (x < 0 || x > 4294967295.0) return std::nullopt;
      return m.uint_constant(static_cast<std::uint32_t>(x));
    }
    case ScalarKind::Bool: return m.bool_constant(v != 0);
  }
  return std::nullopt;
}

// A scalar or vector of `type` with the given component values.
std::optional<ConstantId> make(Module& m, TypeId type, const std::vector<double>& values) {
  const TypeId st = component_type(m, type);
  if (!st.valid() || is_matrix(m, type) || values.size() != std::max<std::uint32_t>(1, component_count(m, type)))
    return std::nullopt;
  std::vector<ConstantId> parts;
  for (double v : values) {
    auto c = scalar(m, st, v);
    if (!c) return std::nullopt;
    parts.push_back(*c);
  }
  if (m.type(type).kind == TypeKind::Scalar) return parts[0];
  return m.composite_constant(type, parts);
}

std::optional<double> apply(Opcode op, const double* x) {
  switch (op) {
    case Opcode::Negate: return -x[0];
    case Opcode::Abs: return std::fabs(x[0]);
    case Opcode::Add: return x[0] + x[1];
    case Opcode::Sub: return x[0] - x[1];
    case Opcode::Mul:
    case Opcode::VectorTimesScalar: return x[0] * x[1];
    case Opcode::Div:
      if (x[1] == 0) return std::nullopt;
      return x[0] / x[1];
    case Opcode::Min: return std::min(x[0], x[1]);
    case Opcode::Max: return std::max(x[0], x[1]);
    case Opcode::LessThan: return x[0] < x[1] ? 1 : 0;
    case Opcode::GreaterThan: return x[0] > x[1] ? 1 : 0;
    case Opcode::LessThanEqual: return x[0] <= x[1] ? 1 : 0;
    case Opcode::GreaterThanEqual: return x[0] >= x[1] ? 1 : 0;
    case Opcode::EqualComponentwise: return x[0] == x[1] ? 1 : 0;
    case Opcode::NotEqualComponentwise: return x[0] != x[1] ? 1 : 0;
    default: break;
  }
  return std::nullopt;
}

}  // namespace

bool involves_double(const Evaluation& e) {
  if (is_double_like(e.module, e.result_type)) return true;
  for (Operand o : e.operands)
    if (o.is_constant() && o.value() < e.module.constant_count() &&
        is_double_like(e.module, e.module.constant(o.as_constant()).type))
      return true;
  return false;
}

std::optional<ConstantId> evaluate_double(const Evaluation& e) {
  Module& m = e.module;
  std::vector<std::vector<Component>> args;
  for (Operand o : e.operands) {
    if (!o.is_constant()) return std::nullopt;
    auto c = components(m, o.as_constant());
    if (!c) return std::nullopt;
    args.push_back(std::move(*c));
  }
  if (args.empty()) return std::nullopt;
  const std::uint32_t n = std::max<std::uint32_t>(1, component_count(m, e.result_type));
  std::vector<double> out;
  switch (e.opcode) {
    case Opcode::ConstructScalarFromScalar:
    case Opcode::ConstructVectorFromVector:
    case Opcode::ConstructVectorFromMultiple:
      // Conversions and concatenations: every component in order, each
      // converted exactly (scalar() refuses what is not).
      for (const auto& a : args)
        for (const Component& k : a) out.push_back(k.value);
      break;
    case Opcode::ConstructVectorFromScalar:
      if (args.size() != 1 || args[0].size() != 1) return std::nullopt;
      out.assign(n, args[0][0].value);
      break;
    default: {
      // Component-wise rules: all operands doubles, scalars splatted.
      if (args.size() > 2) return std::nullopt;
      for (const auto& a : args) {
        if (a.size() != n && a.size() != 1) return std::nullopt;
        for (const Component& k : a)
          if (!k.wide) return std::nullopt;
      }
      for (std::uint32_t j = 0; j < n; ++j) {
        double x[2] = {};
        for (std::size_t k = 0; k < args.size(); ++k) x[k] = args[k][args[k].size() == 1 ? 0 : j].value;
        auto r = apply(e.opcode, x);
        if (!r) return std::nullopt;
        out.push_back(*r);
      }
    }
  }
  return make(m, e.result_type, out);
}

}  // namespace sluice::transform::fold
