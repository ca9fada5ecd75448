// Vector and matrix constructors and scalar broadcast. Constructors whose
// parts are all constants become composite constants (the module interns
// them, so equal constants share one id); otherwise they become
// ConstructVectorFromMultiple / ConstructMatrixFromMultiple. Matrices are
// always built from whole column vectors.
#include <boost/container/small_vector.hpp>
#include <fmt/format.h>

#include "frontend/lambdav/lower.h"
#include "frontend/lambdav/types.h"
#include "ir/predefined.h"

namespace sluice::lambdav {

using ir::Opcode;
using K = Shape::Kind;

std::optional<ir::ConstantId> Lowerer::constant_composite(ir::TypeId type, std::span<const ir::Operand> parts) {
  boost::container::small_vector<ir::ConstantId, 16> ids;
  for (const ir::Operand& p : parts) {
    if (!p.is_constant()) return std::nullopt;
    ids.push_back(p.as_constant());
  }
  return m_.composite_constant(type, as_span(ids));
}

Lowered Lowerer::splat(const Value& scalar, ir::TypeId target, NodeId at) {
  const Shape t = shape_of(m_, target);
  if (t.kind == K::Mat) {
    auto column = splat(scalar, m_.vector_type(ir::ScalarKind::Float, t.size), at);
    if (!column) return column;
    boost::container::small_vector<ir::Operand, 4> columns(t.size, column->operand);
    if (auto c = constant_composite(target, as_span(columns))) return Value::runtime(target, *c);
    return construct(Opcode::ConstructMatrixFromMultiple, target, as_span(columns), at);
  }
  boost::container::small_vector<ir::Operand, 4> parts(t.size, scalar.operand);
  if (auto c = constant_composite(target, as_span(parts))) return Value::runtime(target, *c);
  const ir::Operand op[] = {scalar.operand};
  return construct(Opcode::ConstructVectorFromScalar, target, op, at);
}

Lowered Lowerer::vector_constructor(const BuiltinInfo& bi, const ArgList& args) {
  const std::uint32_t n = bi.size;
  const ir::ScalarKind kind = bi.boolean ? ir::ScalarKind::Bool : ir::ScalarKind::Float;
  const K scalar_kind = bi.boolean ? K::Bool : K::Num;
  const K vector_kind = bi.boolean ? K::BoolVec : K::FloatVec;
  const ir::TypeId target = m_.vector_type(kind, n);
  std::uint32_t total = 0;
  std::string given;
  for (std::uint32_t i = 0; i < args.count; ++i) {
    const Shape s = shape_of(m_, args.values[i].type);
    if (s.kind != scalar_kind && s.kind != vector_kind)
      return error(args.nodes[i], fmt::format("type mismatch: '{}' takes {} or Vec(n, {}) arguments, not {}", bi.name,
                                              bi.boolean ? "Bool" : "Num", bi.boolean ? "b" : "f",
                                              describe(args.values[i])));
    total += s.size;
    given += (i ? ", " : "") + describe(args.values[i]);
  }
  if (args.count == 1 && total == 1) return splat(args.values[0], target, args.call);
  if (args.count == 1 && total == n) return args.values[0];
  if (total != n)
    return error(args.call, fmt::format("vector constructor size mismatch: '{}' needs {} components (or one scalar to "
                                        "repeat), the arguments give {} ({})",
                                        bi.name, n, total, given));
  boost::container::small_vector<ir::Operand, 4> ops;
  for (const Value& v : args.args()) ops.push_back(v.operand);
  return vector_from_parts(target, as_span(ops), args.call);
}

Lowered Lowerer::matrix_constructor(const BuiltinInfo& bi, const ArgList& args) {
  const std::uint32_t n = bi.size;
  const ir::TypeId target = m_.matrix_type(n, n);
  const ir::TypeId column_type = m_.vector_type(ir::ScalarKind::Float, n);
  if (args.count == 1) {
    const Value& v = args.values[0];
    const Shape s = shape_of(m_, v.type);
    if (s.kind == K::Num) {
      // A diagonal matrix.
      if (v.operand.is_constant()) {
        boost::container::small_vector<ir::Operand, 4> columns;
        for (std::uint32_t c = 0; c < n; ++c) {
          boost::container::small_vector<ir::Operand, 4> parts;
          for (std::uint32_t r = 0; r < n; ++r) parts.push_back(r == c ? v.operand : ir::predefined::kFloatZero);
          columns.push_back(*constant_composite(column_type, as_span(parts)));
        }
        return Value::runtime(target, *constant_composite(target, as_span(columns)));
      }
      const ir::Operand op[] = {v.operand};
      return construct(Opcode::ConstructMatrixFromScalar, target, op, args.call);
    }
    if (s.kind == K::Mat) {
      if (s.size == n) return v;
      const ir::Operand op[] = {v.operand};
      return construct(Opcode::ConstructMatrixFromMatrix, target, op, args.call);
    }
  }
  // Columns from consecutive arguments; no argument may straddle two columns.
  boost::container::small_vector<ir::Operand, 4> columns;
  boost::container::small_vector<ir::Operand, 4> parts;
  std::uint32_t filled = 0;
  std::uint32_t total = 0;
  for (std::uint32_t i = 0; i < args.count; ++i) {
    const Value& v = args.values[i];
    const Shape s = shape_of(m_, v.type);
    if (s.kind != K::Num && s.kind != K::FloatVec)
      return error(args.nodes[i], fmt::format("type mismatch: '{}' takes Num or Vec(n, f) arguments (or one Num or "
                                              "Mat), not {}",
                                              bi.name, describe(v)));
    total += s.size;
    if (filled + s.size > n || columns.size() == n)
      return error(args.nodes[i], fmt::format("matrix constructor size mismatch: the arguments of '{}' must fill {} "
                                              "whole columns of {} components; argument {} ({}) does not fit",
                                              bi.name, n, n, i + 1, describe(v)));
    parts.push_back(v.operand);
    filled += s.size;
    if (filled < n) continue;
    if (parts.size() == 1) {
      columns.push_back(parts[0]);
    } else {
      auto column = vector_from_parts(column_type, as_span(parts), args.call);
      if (!column) return column;
      columns.push_back(column->operand);
    }
    parts.clear();
    filled = 0;
  }
  if (columns.size() != n)
    return error(args.call, fmt::format("matrix constructor size mismatch: '{}' needs {} columns of {} components ({} "
                                        "numbers), the arguments give {}",
                                        bi.name, n, n, n * n, total));
  if (auto c = constant_composite(target, as_span(columns))) return Value::runtime(target, *c);
  return construct(Opcode::ConstructMatrixFromMultiple, target, as_span(columns), args.call);
}

// A vector from scalars and vectors whose sizes add up; all constants give
// one composite constant of the flattened components.
Lowered Lowerer::vector_from_parts(ir::TypeId type, std::span<const ir::Operand> parts, NodeId at) {
  boost::container::small_vector<ir::Operand, 4> flat;
  bool all_constant = true;
  for (const ir::Operand& p : parts) {
    if (!p.is_constant()) {
      all_constant = false;
      break;
    }
    const ir::Constant& c = m_.constant(p.as_constant());
    if (c.is_composite())
      for (ir::ConstantId part : c.components) flat.push_back(part);
    else
      flat.push_back(p);
  }
  if (all_constant)
    if (auto c = constant_composite(type, as_span(flat))) return Value::runtime(type, *c);
  return construct(Opcode::ConstructVectorFromMultiple, type, parts, at);
}

}  // namespace sluice::lambdav
