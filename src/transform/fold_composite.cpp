// Folding of whole instructions: flattening constants to component lists,
// applying component-wise rules (fold_scalar.cpp) with scalar operands
// splatted, constructors, extracts, and dispatch to the whole-value rules
// (fold_matrix.cpp). Results go through the module's deduplicating
// constant tables (Module::intern), so folding never makes two equal
// constants.
//
// Algorithm of evaluate(): refuse unless every operand is a constant (or a
// literal) that no specialization constant feeds; then, by table lookup on
// the opcode, a structural rule (constructors, extracts: these work on any
// constant, arrays and structs included), a whole-value rule, or the
// component-wise rule applied to each result component.
#include <array>
#include <bit>
#include <cmath>
#include <unordered_set>
#include <vector>

#include "ir/typing.h"
#include "transform/fold.h"

namespace sluice::transform::fold {

using namespace ir;

std::optional<Value> flatten(const Module& m, ConstantId id) {
  if (!id.valid() || id.index() >= m.constant_count()) return std::nullopt;
  const Constant& c = m.constant(id);
  if (c.spec_id) return std::nullopt;
  const Type& t = m.type(c.type);
  Value v;
  v.type = c.type;
  auto kind = component_kind(m, c.type);
  if (!kind || is_double_like(m, c.type)) return std::nullopt;  // fold_double.cpp
  v.kind = *kind;
  auto scalar_of = [&](ConstantId s) -> std::optional<std::uint32_t> {
    if (!s.valid() || s.index() >= m.constant_count()) return std::nullopt;
    const Constant& sc = m.constant(s);
    if (sc.spec_id || sc.is_composite()) return std::nullopt;
    return sc.bits;
  };
  switch (t.kind) {
    case TypeKind::Scalar:
      if (c.is_composite()) return std::nullopt;
      v.bits.push_back(c.bits);
      return v;
    case TypeKind::Vector:
      if (c.components.size() != t.count) return std::nullopt;
      v.rows = t.count;
      for (ConstantId s : c.components) {
        auto b = scalar_of(s);
        if (!b) return std::nullopt;
        v.bits.push_back(*b);
      }
      return v;
    case TypeKind::Matrix:
      if (c.components.size() != t.count) return std::nullopt;
      v.columns = t.count;
      v.rows = m.type(t.element).count;
      for (ConstantId col : c.components) {
        if (!col.valid() || col.index() >= m.constant_count()) return std::nullopt;
        const Constant& cc = m.constant(col);
        if (cc.spec_id || cc.components.size() != v.rows) return std::nullopt;
        for (ConstantId s : cc.components) {
          auto b = scalar_of(s);
          if (!b) return std::nullopt;
          v.bits.push_back(*b);
        }
      }
      return v;
    default:
      return std::nullopt;
  }
}

ConstantId intern(Module& m, const Value& v) {
  const TypeId scalar = m.scalar_type(v.kind);
  auto scalar_constant = [&](std::uint32_t bits) { return m.intern(Constant{scalar, bits, {}, {}}); };
  if (v.columns == 0 && v.rows == 1 && m.type(v.type).kind == TypeKind::Scalar) return scalar_constant(v.bits[0]);
  auto vector_constant = [&](std::size_t first, std::uint32_t n) {
    std::vector<ConstantId> parts;
    for (std::uint32_t j = 0; j < n; ++j) parts.push_back(scalar_constant(v.bits[first + j]));
    return m.composite_constant(m.vector_type(v.kind, n), parts);
  };
  if (v.columns == 0) return vector_constant(0, v.rows);
  std::vector<ConstantId> columns;
  for (std::uint32_t c = 0; c < v.columns; ++c) columns.push_back(vector_constant(std::size_t{c} * v.rows, v.rows));
  return m.composite_constant(v.type, columns);
}

bool depends_on_spec_constant(const Module& m, ConstantId root) {
  // Explicit stack: composite nesting follows type nesting, which has no
  // bound; `seen` keeps shared components from being walked twice.
  std::vector<ConstantId> stack{root};
  std::unordered_set<std::uint32_t> seen;
  while (!stack.empty()) {
    const ConstantId id = stack.back();
    stack.pop_back();
    if (!id.valid() || id.index() >= m.constant_count()) return true;
    if (!seen.insert(id.index()).second) continue;
    const Constant& c = m.constant(id);
    if (c.spec_id) return true;
    stack.insert(stack.end(), c.components.begin(), c.components.end());
  }
  return false;
}

// A Value of `type` (scalar, vector or matrix), components not yet set.
std::optional<Value> shaped(const Module& m, TypeId type) {
  auto kind = component_kind(m, type);
  if (!kind || is_double_like(m, type)) return std::nullopt;  // fold_double.cpp
  Value v;
  v.type = type;
  v.kind = *kind;
  const Type& t = m.type(type);
  if (t.kind == TypeKind::Matrix) {
    v.columns = t.count;
    v.rows = m.type(t.element).count;
  } else {
    v.rows = component_count(m, type);
  }
  return v;
}


bool all_finite(const Value& v) {
  if (v.kind != ScalarKind::Float) return true;
  for (std::uint32_t b : v.bits)
    if (!std::isfinite(as_float(b))) return false;
  return true;
}

namespace {

std::optional<ConstantId> componentwise(const Evaluation& e, ScalarRule rule, std::span<const Value> args) {
  auto out = shaped(e.module, e.result_type);
  if (!out) return std::nullopt;
  const std::size_t n = size(*out);
  for (const Value& a : args) {
    if (size(a) != n && size(a) != 1) return std::nullopt;
    if (!all_finite(a)) return std::nullopt;
  }
  std::array<Scalar, 4> scalars;
  if (args.size() > scalars.size()) return std::nullopt;
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t k = 0; k < args.size(); ++k) scalars[k] = args[k].at(size(args[k]) == 1 ? 0 : j);
    auto r = rule(scalars.data());
    if (!r) return std::nullopt;
    out->bits.push_back(*r);
  }
  return intern(e.module, *out);
}

// --- Constructors ---

std::optional<ConstantId> construct_numeric(const Evaluation& e) {
  auto out = shaped(e.module, e.result_type);
  if (!out) return std::nullopt;
  std::vector<Value> args;
  for (Operand o : e.operands) {
    auto v = flatten(e.module, o.as_constant());
    if (!v) return std::nullopt;
    args.push_back(std::move(*v));
  }
  const std::size_t n = size(*out);
  auto put = [&](Scalar s) {
    auto c = convert(s, out->kind);
    if (!c) return false;
    out->bits.push_back(*c);
    return true;
  };
  if (e.opcode == Opcode::ConstructMatrixFromScalar || e.opcode == Opcode::ConstructMatrixFromMatrix) {
    if (args.size() != 1 || out->columns == 0) return std::nullopt;
    const Value& a = args[0];
    for (std::uint32_t c = 0; c < out->columns; ++c) {
      for (std::uint32_t r = 0; r < out->rows; ++r) {
        Scalar s{float_bits(c == r ? 1.0f : 0.0f), ScalarKind::Float};
        if (e.opcode == Opcode::ConstructMatrixFromScalar) {
          if (c == r) s = a.at(0);
          else s.bits = float_bits(0.0f);
        } else if (c < a.columns && r < a.rows) {
          s = a.at(std::size_t{c} * a.rows + r);
        }
        if (!put(s)) return std::nullopt;
      }
    }
  } else if (e.opcode == Opcode::ConstructVectorFromScalar) {
    if (args.size() != 1 || size(args[0]) != 1) return std::nullopt;
    for (std::size_t j = 0; j < n; ++j)
      if (!put(args[0].at(0))) return std::nullopt;
  } else {
    // Scalar/vector conversions and the "FromMultiple" concatenations.
    for (const Value& a : args)
      for (std::size_t j = 0; j < size(a); ++j)
        if (!put(a.at(j))) return std::nullopt;
  }
  if (out->bits.size() != n || !all_finite(*out)) return std::nullopt;
  return intern(e.module, *out);
}

std::optional<ConstantId> construct_aggregate(const Evaluation& e) {
  std::vector<ConstantId> parts;
  for (Operand o : e.operands) parts.push_back(o.as_constant());
  if (parts.empty()) return std::nullopt;
  return e.module.composite_constant(e.result_type, parts);
}

std::optional<ConstantId> bitcast(const Evaluation& e) {
  auto a = flatten(e.module, e.operands[0].as_constant());
  auto out = shaped(e.module, e.result_type);
  if (!a || !out || size(*a) != size(*out)) return std::nullopt;
  out->bits = a->bits;
  if (!all_finite(*out)) return std::nullopt;
  return intern(e.module, *out);
}

// --- Extracts: pick components of the constant as the table holds them ---

std::optional<std::uint32_t> index_of(const Module& m, Operand o) {
  if (o.is_literal()) return o.value();
  if (!o.is_constant()) return std::nullopt;
  const Constant& c = m.constant(o.as_constant());
  if (c.is_composite()) return std::nullopt;
  if (c.type == predefined::kInt && c.as_int() < 0) return std::nullopt;
  return c.bits;
}

std::optional<ConstantId> extract(const Evaluation& e) {
  if (!e.operands[0].is_constant()) return std::nullopt;
  const Constant& c = e.module.constant(e.operands[0].as_constant());
  if (e.opcode == Opcode::ExtractVectorComponentMulti) {
    std::vector<ConstantId> parts;
    for (std::size_t k = 1; k < e.operands.size(); ++k) {
      auto j = index_of(e.module, e.operands[k]);
      if (!j || *j >= c.components.size()) return std::nullopt;
      parts.push_back(c.components[*j]);
    }
    return e.module.composite_constant(e.result_type, parts);
  }
  if (e.operands.size() != 2) return std::nullopt;
  auto j = index_of(e.module, e.operands[1]);
  if (!j || *j >= c.components.size()) return std::nullopt;  // out of range: undefined
  return c.components[*j];
}

// Equal / NotEqual of whole values of any type: leaf by leaf, floats
// compared as floats (-0 == +0; NaN refuses to fold).
std::optional<ConstantId> equal_whole(const Evaluation& e) {
  const Module& m = e.module;
  std::vector<std::pair<ConstantId, ConstantId>> stack{{e.operands[0].as_constant(), e.operands[1].as_constant()}};
  bool equal = true;
  while (!stack.empty() && equal) {
    auto [a, b] = stack.back();
    stack.pop_back();
    const Constant& ca = m.constant(a);
    const Constant& cb = m.constant(b);
    if (ca.components.size() != cb.components.size()) return std::nullopt;
    if (ca.is_composite()) {
      for (std::size_t k = 0; k < ca.components.size(); ++k) stack.emplace_back(ca.components[k], cb.components[k]);
      continue;
    }
    if (is_double_like(m, ca.type)) {
      const double x = ca.as_double(), y = cb.as_double();
      if (std::isnan(x) || std::isnan(y)) return std::nullopt;
      equal = x == y;
    } else if (component_kind(m, ca.type) == ScalarKind::Float) {
      const float x = ca.as_float(), y = cb.as_float();
      if (std::isnan(x) || std::isnan(y)) return std::nullopt;
      equal = x == y;
    } else {
      equal = ca.bits == cb.bits;
    }
  }
  return e.module.bool_constant(e.opcode == Opcode::Equal ? equal : !equal);
}

struct StructuralEntry {
  Opcode op;
  std::optional<ConstantId> (*rule)(const Evaluation&);
};

constexpr StructuralEntry kStructural[] = {
    {Opcode::ConstructScalarFromScalar, construct_numeric},
    {Opcode::ConstructVectorFromScalar, construct_numeric},
    {Opcode::ConstructVectorFromVector, construct_numeric},
    {Opcode::ConstructMatrixFromScalar, construct_numeric},
    {Opcode::ConstructMatrixFromMatrix, construct_numeric},
    {Opcode::ConstructVectorFromMultiple, construct_numeric},
    {Opcode::ConstructMatrixFromMultiple, construct_numeric},
    {Opcode::ConstructStruct, construct_aggregate},
    {Opcode::ConstructArray, construct_aggregate},
    {Opcode::Bitcast, bitcast},
    {Opcode::ExtractVectorComponent, extract},
    {Opcode::ExtractVectorComponentMulti, extract},
    {Opcode::ExtractVectorComponentDynamic, extract},
    {Opcode::ExtractMatrixColumn, extract},
    {Opcode::ExtractStructField, extract},
    {Opcode::ExtractArrayElement, extract},
    {Opcode::Equal, equal_whole},
    {Opcode::NotEqual, equal_whole},
};

}  // namespace

std::optional<ConstantId> evaluate(const Evaluation& e) {
  const Module& m = e.module;
  if (!e.result_type.valid() || e.operands.empty()) return std::nullopt;
  for (Operand o : e.operands) {
    if (o.is_literal()) continue;
    if (!o.is_constant() || depends_on_spec_constant(m, o.as_constant())) return std::nullopt;
  }
  if (involves_double(e))
    if (auto d = evaluate_double(e)) return d;
  for (const StructuralEntry& s : kStructural)
    if (s.op == e.opcode) return s.rule(e);
  const WholeRule whole = whole_rule(e.opcode);
  const ScalarRule scalar = whole ? nullptr : scalar_rule(e.opcode);
  if (!whole && !scalar) return std::nullopt;
  std::vector<Value> args;
  for (Operand o : e.operands) {
    if (!o.is_constant()) return std::nullopt;
    auto v = flatten(m, o.as_constant());
    if (!v) return std::nullopt;
    args.push_back(std::move(*v));
  }
  if (whole) {
    for (const Value& a : args)
      if (!all_finite(a)) return std::nullopt;
    return whole(e, args);
  }
  return componentwise(e, scalar, args);
}

}  // namespace sluice::transform::fold
