// Typing and lowering of builtin applications (builtins.h): arithmetic with
// scalar broadcast and linear algebra, comparisons, logic, GLSL.std.450
// math, swizzles and (frag-coord). Every rule checks λV types first and
// reports a mismatch naming the types involved, so the builder's own type
// inference never sees ill-typed operands.
#include <boost/container/small_vector.hpp>
#include <fmt/format.h>

#include "frontend/lambdav/lower.h"
#include "frontend/lambdav/types.h"
#include "ir/predefined.h"

namespace sluice::lambdav {

using ir::Opcode;
using K = Shape::Kind;

namespace {

std::string arity_text(const BuiltinInfo& bi) {
  if (bi.max_args == kVariadic) return fmt::format("at least {} arguments", bi.min_args);
  if (bi.min_args == bi.max_args) return fmt::format("{} argument{}", bi.min_args, bi.min_args == 1 ? "" : "s");
  return fmt::format("{} to {} arguments", bi.min_args, bi.max_args);
}

bool is_numeric(const Shape& s) { return s.kind == K::Num || s.kind == K::FloatVec || s.kind == K::Mat; }

}  // namespace

Lowered Lowerer::lower_builtin(BuiltinId id, const ArgList& args) {
  const BuiltinInfo& bi = builtin(id);
  if (args.count < bi.min_args || (bi.max_args != kVariadic && args.count > bi.max_args))
    return error(args.call, fmt::format("'{}' takes {}, {} given", bi.name, arity_text(bi), args.count));
  for (std::uint32_t i = 0; i < args.count; ++i)
    if (!args.values[i].is_runtime())
      return error(args.nodes[i], fmt::format("argument {} of '{}' is {}; '{}' takes values, not functions", i + 1,
                                              bi.name, describe(args.values[i]), bi.name));
  const std::span<const Value> a = args.args();
  set_location(args.call);
  switch (bi.kind) {
    case BuiltinKind::Add:
    case BuiltinKind::Mul:
    case BuiltinKind::Div:
    case BuiltinKind::Sub: {
      if (bi.kind == BuiltinKind::Sub && a.size() == 1) {
        if (!is_numeric(shape_of(m_, a[0].type)))
          return error(args.nodes[0], fmt::format("type mismatch: '-' negates Num, Vec(n, f) or Mat(n), not {}",
                                                  describe(a[0])));
        return emit(Opcode::Negate, {a[0].operand}, args.call);
      }
      Value acc = a[0];
      for (std::size_t i = 1; i < a.size(); ++i) {
        auto r = arithmetic(bi.kind, acc, a[i], args.call, bi.name);
        if (!r) return r;
        acc = *r;
      }
      return acc;
    }
    case BuiltinKind::Compare: return compare(bi.opcode, a[0], a[1], args.call, bi.name, false);
    case BuiltinKind::Equality: return compare(bi.opcode, a[0], a[1], args.call, bi.name, true);
    case BuiltinKind::And:
    case BuiltinKind::Or: return logic_eager(bi.kind == BuiltinKind::And, a, args);
    case BuiltinKind::Not:
    case BuiltinKind::Reduce: {
      const Shape s = shape_of(m_, a[0].type);
      const bool ok = bi.kind == BuiltinKind::Not ? is_bool_scalar_or_vector(s) : s.kind == K::BoolVec;
      if (!ok)
        return error(args.nodes[0], fmt::format("type mismatch: '{}' takes {}, not {}", bi.name,
                                                bi.kind == BuiltinKind::Not ? "Bool or Vec(n, b)" : "Vec(n, b)",
                                                describe(a[0])));
      return emit(bi.opcode, {a[0].operand}, args.call);
    }
    case BuiltinKind::VectorCtor: return vector_constructor(bi, args);
    case BuiltinKind::MatrixCtor: return matrix_constructor(bi, args);
    case BuiltinKind::FragCoord: return frag_coord();
    default: return float_op(bi, args);
  }
}

Lowered Lowerer::arithmetic(BuiltinKind kind, Value a, Value b, NodeId at, std::string_view name) {
  const Shape sa = shape_of(m_, a.type);
  const Shape sb = shape_of(m_, b.type);
  auto mismatch = [&]() {
    return error(at, fmt::format("type mismatch: '{}' cannot combine {} and {}", name, describe(a), describe(b)));
  };
  if (!is_numeric(sa) || !is_numeric(sb)) return mismatch();
  if (kind == BuiltinKind::Mul) {
    // Linear algebra and the mixed scalar forms, as in GLSL.
    if (sa.kind == K::Mat && sb.kind == K::Mat && sa.size == sb.size)
      return emit(Opcode::MatrixTimesMatrix, {a.operand, b.operand}, at);
    if (sa.kind == K::Mat && sb.kind == K::FloatVec && sa.size == sb.size)
      return emit(Opcode::MatrixTimesVector, {a.operand, b.operand}, at);
    if (sa.kind == K::FloatVec && sb.kind == K::Mat && sa.size == sb.size)
      return emit(Opcode::VectorTimesMatrix, {a.operand, b.operand}, at);
    if (sa.kind == K::FloatVec && sb.kind == K::Num) return emit(Opcode::VectorTimesScalar, {a.operand, b.operand}, at);
    if (sa.kind == K::Num && sb.kind == K::FloatVec) return emit(Opcode::VectorTimesScalar, {b.operand, a.operand}, at);
    if (sa.kind == K::Mat && sb.kind == K::Num) return emit(Opcode::MatrixTimesScalar, {a.operand, b.operand}, at);
    if (sa.kind == K::Num && sb.kind == K::Mat) return emit(Opcode::MatrixTimesScalar, {b.operand, a.operand}, at);
    if (a.type == b.type && sa.kind != K::Mat) return emit(Opcode::Mul, {a.operand, b.operand}, at);
    return mismatch();
  }
  const Opcode op = kind == BuiltinKind::Add ? Opcode::Add : kind == BuiltinKind::Sub ? Opcode::Sub : Opcode::Div;
  if (a.type != b.type) {
    // A Num on either side is broadcast to the other operand's shape.
    if (sa.kind == K::Num) {
      auto s = splat(a, b.type, at);
      if (!s) return s;
      a = *s;
    } else if (sb.kind == K::Num) {
      auto s = splat(b, a.type, at);
      if (!s) return s;
      b = *s;
    } else {
      return mismatch();
    }
  }
  return emit(op, {a.operand, b.operand}, at);
}

Lowered Lowerer::compare(Opcode op, Value a, Value b, NodeId at, std::string_view name, bool equality) {
  const Shape sa = shape_of(m_, a.type);
  const Shape sb = shape_of(m_, b.type);
  auto allowed = [&](const Shape& s) {
    return is_float_scalar_or_vector(s) || (equality && is_bool_scalar_or_vector(s));
  };
  auto mismatch = [&]() {
    return error(at, fmt::format("type mismatch: '{}' cannot compare {} and {}{}", name, describe(a), describe(b),
                                 equality ? "" : " (it compares Num or Vec(n, f))"));
  };
  if (!allowed(sa) || !allowed(sb)) return mismatch();
  if (a.type != b.type) {
    const bool same_kind = is_float_scalar_or_vector(sa) == is_float_scalar_or_vector(sb);
    if (!same_kind) return mismatch();
    if (is_scalar(sa)) {
      auto s = splat(a, b.type, at);
      if (!s) return s;
      a = *s;
    } else if (is_scalar(sb)) {
      auto s = splat(b, a.type, at);
      if (!s) return s;
      b = *s;
    } else {
      return mismatch();
    }
  }
  if (equality && !is_scalar(shape_of(m_, a.type)))
    op = op == Opcode::Equal ? Opcode::EqualComponentwise : Opcode::NotEqualComponentwise;
  return emit(op, {a.operand, b.operand}, at);
}

Lowered Lowerer::logic_eager(bool is_and, std::span<const Value> args, const ArgList& list) {
  const char* name = is_and ? "and" : "or";
  const Shape s = shape_of(m_, args[0].type);
  if (!is_bool_scalar_or_vector(s))
    return error(list.nodes[0], fmt::format("type mismatch: '{}' takes Bool or Vec(n, b), not {}", name,
                                            describe(args[0])));
  Value acc = args[0];
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i].type != acc.type)
      return error(list.nodes[i], fmt::format("type mismatch: '{}' cannot combine {} and {}", name, describe(acc),
                                              describe(args[i])));
    auto r = emit(is_and ? Opcode::LogicalAnd : Opcode::LogicalOr, {acc.operand, args[i].operand}, list.call);
    if (!r) return r;
    acc = *r;
  }
  return acc;
}

Lowered Lowerer::float_op(const BuiltinInfo& bi, const ArgList& args) {
  const std::span<const Value> a = args.args();
  boost::container::small_vector<ir::Operand, 3> ops;
  for (const Value& v : a) ops.push_back(v.operand);
  auto names = [&]() {
    std::string out;
    for (std::size_t i = 0; i < a.size(); ++i) out += (i ? ", " : "") + describe(a[i]);
    return out;
  };
  auto mismatch = [&](std::string_view wants) {
    return error(args.call, fmt::format("type mismatch: '{}' takes {}, not {}", bi.name, wants, names()));
  };
  auto all_float = [&]() {
    for (const Value& v : a)
      if (!is_float_scalar_or_vector(shape_of(m_, v.type))) return false;
    return true;
  };
  switch (bi.kind) {
    case BuiltinKind::FloatUnary:
    case BuiltinKind::Length:
      if (!all_float()) return mismatch("Num or Vec(n, f)");
      return emit(bi.opcode, as_span(ops), args.call);
    case BuiltinKind::FloatBinary:
    case BuiltinKind::FloatTernary: {
      // Num arguments are broadcast to the vector arguments' size.
      if (!all_float()) return mismatch("Num or Vec(n, f) arguments");
      ir::TypeId wide = ir::predefined::kFloat;
      for (const Value& v : a) {
        if (v.type == ir::predefined::kFloat) continue;
        if (wide != ir::predefined::kFloat && wide != v.type) return mismatch("Num or Vec(n, f) arguments of one size");
        wide = v.type;
      }
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].type == wide) continue;
        auto s = splat(a[i], wide, args.call);
        if (!s) return s;
        ops[i] = s->operand;
      }
      return emit(bi.opcode, as_span(ops), args.call);
    }
    case BuiltinKind::Reflect:
    case BuiltinKind::FaceForward:
    case BuiltinKind::FloatBinaryToNum:
      if (!all_float()) return mismatch("Num or Vec(n, f) arguments");
      for (const Value& v : a)
        if (v.type != a[0].type) return mismatch("arguments of one type");
      return emit(bi.opcode, as_span(ops), args.call);
    case BuiltinKind::Cross:
      if (a[0].type != ir::predefined::kVec3 || a[1].type != ir::predefined::kVec3) return mismatch("two Vec(3, f)");
      return emit(bi.opcode, as_span(ops), args.call);
    case BuiltinKind::Refract:
      if (!is_float_scalar_or_vector(shape_of(m_, a[0].type)) || a[1].type != a[0].type ||
          a[2].type != ir::predefined::kFloat)
        return mismatch("an incident and a normal of one type (Num or Vec(n, f)) and a Num ratio");
      return emit(bi.opcode, as_span(ops), args.call);
    case BuiltinKind::MatrixUnary:
      if (shape_of(m_, a[0].type).kind != K::Mat) return mismatch("Mat(n)");
      return emit(bi.opcode, as_span(ops), args.call);
    default: break;
  }
  return error(args.call, "internal error: unhandled builtin");
}

Lowered Lowerer::apply_swizzle(Swizzle s, const ArgList& args) {
  std::string name = ".";
  for (std::uint8_t i = 0; i < s.count; ++i) name += "xyzw"[s.components[i]];
  if (args.count != 1)
    return error(args.call, fmt::format("a swizzle takes 1 argument, {} given", args.count));
  const Value& v = args.values[0];
  const Shape shape = v.is_runtime() ? shape_of(m_, v.type) : Shape{};
  if (shape.kind != K::FloatVec && shape.kind != K::BoolVec)
    return error(args.nodes[0], fmt::format("type mismatch: a swizzle takes a vector, not {}", describe(v)));
  for (std::uint8_t i = 0; i < s.count; ++i)
    if (s.components[i] >= shape.size)
      return error(args.call, fmt::format("swizzle component '{}' is out of range for {}",
                                          "xyzw"[s.components[i]], describe(v)));
  const ir::ScalarKind kind = shape.kind == K::FloatVec ? ir::ScalarKind::Float : ir::ScalarKind::Bool;
  const ir::TypeId result = m_.vector_type(kind, s.count);
  if (v.operand.is_constant()) {
    const ir::Constant& c = m_.constant(v.operand.as_constant());
    if (c.is_composite()) {
      if (s.count == 1) return Value::runtime(result, c.components[s.components[0]]);
      std::vector<ir::ConstantId> parts;
      for (std::uint8_t i = 0; i < s.count; ++i) parts.push_back(c.components[s.components[i]]);
      return Value::runtime(result, m_.composite_constant(result, parts));
    }
  }
  if (s.count == 1)
    return emit(Opcode::ExtractVectorComponent, {v.operand, ir::Operand::literal(s.components[0])}, args.call);
  boost::container::small_vector<ir::Operand, 5> ops{v.operand};
  for (std::uint8_t i = 0; i < s.count; ++i) ops.push_back(ir::Operand::literal(s.components[i]));
  return emit(Opcode::ExtractVectorComponentMulti, as_span(ops), args.call);
}

Lowered Lowerer::frag_coord() {
  if (!frag_coord_.valid()) {
    ir::Decorations d;
    d.built_in = "FragCoord";
    frag_coord_ = b_.add_global(ir::Name{"gl_FragCoord", ir::NameSource::Internal}, ir::predefined::kVec4,
                                ir::StorageClass::Input, ir::Precision::None, d);
  }
  auto r = b_.load(frag_coord_);
  if (!r) return std::nullopt;
  return Value::runtime(ir::predefined::kVec4, *r);
}

}  // namespace sluice::lambdav
