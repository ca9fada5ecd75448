// Constructors, implicit conversions and the scalar-to-vector splats the IR
// needs where GLSL mixes scalars with vectors or matrices (IR operands of
// one arithmetic instruction have one type).
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {
namespace {

// Struct-in-struct and array-in-array conversions recurse once per level;
// glslang's types nest far less deeply in practice.
constexpr int kMaxCoerceDepth = 64;

}  // namespace

ir::Operand Translator::splat(ir::Operand scalar, ir::TypeId shape, const TIntermTyped* node) {
  if (failed_) return kNoValue;
  const ir::Type st = module_.type(shape);
  if (st.kind == ir::TypeKind::Scalar) return coerce(scalar, shape, node);
  if (st.kind == ir::TypeKind::Matrix) {
    const ir::Operand column = splat(scalar, st.element, node);
    const std::vector<ir::Operand> columns(st.count, column);
    if (column.is_constant()) {
      const std::vector<ir::ConstantId> cs(st.count, column.as_constant());
      return module_.composite_constant(shape, cs);
    }
    return construct(ir::Opcode::ConstructMatrixFromMultiple, shape, columns, node);
  }
  if (st.kind != ir::TypeKind::Vector) {
    error(node ? node->getLoc() : glslang::TSourceLoc{}, "internal error: splat to a non-vector");
    return kNoValue;
  }
  const ir::Operand s = coerce(scalar, st.element, node);
  if (s.is_constant()) {
    const std::vector<ir::ConstantId> cs(st.count, s.as_constant());
    return module_.composite_constant(shape, cs);
  }
  return construct(ir::Opcode::ConstructVectorFromScalar, shape, {s}, node);
}

void Translator::match_shapes(ir::Operand& a, ir::Operand& b, const TIntermTyped* node) {
  const ir::TypeId ta = type_of(a), tb = type_of(b);
  if (failed_ || ta == tb) return;
  if (ir::is_scalar(module_, ta) && !ir::is_scalar(module_, tb))
    a = splat(a, tb, node);
  else if (ir::is_scalar(module_, tb) && !ir::is_scalar(module_, ta))
    b = splat(b, ta, node);
}

ir::Operand Translator::coerce(ir::Operand v, ir::TypeId to, const TIntermTyped* node) {
  if (failed_ || !to.valid()) return kNoValue;
  const ir::TypeId from = type_of(v);
  if (from == to) return v;
  const glslang::TSourceLoc loc = node ? node->getLoc() : glslang::TSourceLoc{};
  if (!from.valid()) {
    error(loc, "internal error: an expression without a value");
    return kNoValue;
  }
  const ir::Type ft = module_.type(from);
  const ir::Type tt = module_.type(to);
  if (ft.kind == ir::TypeKind::Scalar && tt.kind == ir::TypeKind::Scalar)
    return construct(ir::Opcode::ConstructScalarFromScalar, to, {v}, node);
  if (ft.kind == ir::TypeKind::Vector && tt.kind == ir::TypeKind::Vector && ft.count == tt.count)
    return construct(ir::Opcode::ConstructVectorFromVector, to, {v}, node);
  if (ft.kind == ir::TypeKind::Image || ft.kind == ir::TypeKind::SampledImage) {
    unsupported(loc, fmt::format("passing an image argument to a parameter of another image type (format or kind: "
                                 "{} to {})",
                                 ir::describe_type(module_, from), ir::describe_type(module_, to)));
    return kNoValue;
  }
  const bool structs = ft.kind == ir::TypeKind::Struct && tt.kind == ir::TypeKind::Struct &&
                       ft.members.size() == tt.members.size();
  const bool arrays = ft.kind == ir::TypeKind::Array && tt.kind == ir::TypeKind::Array && ft.count == tt.count;
  if (!structs && !arrays) {
    error(loc, fmt::format("internal error: cannot convert {} to {}", ir::describe_type(module_, from),
                           ir::describe_type(module_, to)));
    return kNoValue;
  }
  if (coerce_depth >= kMaxCoerceDepth) {
    unsupported(loc, "copying between struct types nested this deeply");
    return kNoValue;
  }
  // Member by member (element by element): a copy between twins that
  // differ only in layout, as SPIR-V 1.4's OpCopyLogical does.
  ++coerce_depth;
  std::vector<ir::Operand> parts;
  const std::size_t n = structs ? ft.members.size() : ft.count;
  for (std::size_t i = 0; i < n && !failed_; ++i) {
    const ir::Operand part =
        structs ? emit(ir::Opcode::ExtractStructField, {v, ir::Operand::literal(static_cast<std::uint32_t>(i))}, node)
                : emit(ir::Opcode::ExtractArrayElement, {v, int_constant(static_cast<std::int32_t>(i))}, node);
    parts.push_back(coerce(part, structs ? tt.members[i].type : tt.element, node));
  }
  --coerce_depth;
  return construct(structs ? ir::Opcode::ConstructStruct : ir::Opcode::ConstructArray, to, parts, node);
}

std::optional<ir::Operand> Translator::constant_composite(ir::TypeId t, std::span<const ir::Operand> parts) {
  // glslang folds constructors of constants itself, except where a
  // specialization constant takes part: those stay constants here too,
  // as SPIR-V's OpSpecConstantComposite does.
  const ir::Type& ty = module_.type(t);
  const std::size_t n = ty.kind == ir::TypeKind::Struct ? ty.members.size() : ty.count;
  if (failed_ || parts.size() != n) return std::nullopt;
  std::vector<ir::ConstantId> cs;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const ir::TypeId want = ty.kind == ir::TypeKind::Struct ? ty.members[i].type : ty.element;
    if (!parts[i].is_constant() || type_of(parts[i]) != want) return std::nullopt;
    cs.push_back(parts[i].as_constant());
  }
  return module_.composite_constant(t, cs);
}

Value Translator::conversion(const TIntermUnary* node) {
  TIntermTyped* operand = const_cast<TIntermUnary*>(node)->getOperand();
  const ir::Operand v = rvalue(operand);
  const ir::TypeId to = type(node->getType(), node->getLoc());
  if (failed_) return {};
  locate(node);
  return Value::rvalue(coerce(v, to, node));
}

Value Translator::constructor(const TIntermAggregate* node) {
  const ir::TypeId t = type(node->getType(), node->getLoc());
  std::vector<ir::Operand> args;
  for (TIntermNode* n : node->getSequence()) {
    TIntermTyped* typed = n ? n->getAsTyped() : nullptr;
    if (!typed) {
      unsupported(node->getLoc(), "a constructor argument that is not an expression");
      return {};
    }
    args.push_back(rvalue(typed));
  }
  if (failed_ || args.empty()) {
    if (!failed_) unsupported(node->getLoc(), "a constructor without arguments");
    return {};
  }
  locate(node);
  using ir::Opcode;
  if (node->getOp() == glslang::EOpConstructTextureSampler) {
    if (args.size() != 2) {
      unsupported(node->getLoc(), "this sampler constructor");
      return {};
    }
    return Value::rvalue(construct(Opcode::ConstructSampledImage, t, {args[0], args[1]}, node));
  }
  const ir::Type rt = module_.type(t);
  // The first component of a vector or matrix.
  auto first = [&](ir::Operand v) {
    if (ir::is_matrix(module_, type_of(v)))
      v = emit(Opcode::ExtractMatrixColumn, {v, ir::predefined::kIntZero}, node);
    if (ir::is_vector(module_, type_of(v))) v = emit(Opcode::ExtractVectorComponent, {v, ir::Operand::literal(0)}, node);
    return v;
  };
  // Scalars and vectors making up `needed` components of the scalar type
  // `k` (float and double differ), in order; matrices give their columns
  // (only those the result takes), and the last argument may give more
  // components than are left (the rest are dropped).
  auto pieces = [&](std::uint32_t needed, ir::TypeId k) {
    std::vector<ir::Operand> out;
    auto take = [&](ir::Operand a) {
      const std::uint32_t n = ir::component_count(module_, type_of(a));
      if (n == 0) {
        unsupported(node->getLoc(), "this constructor argument");
        return;
      }
      ir::Operand v = coerce(a, n == 1 ? k : module_.intern(ir::Type::make_vector(k, n)), node);
      if (n > needed) {
        if (needed == 1) {
          v = emit(Opcode::ExtractVectorComponent, {v, ir::Operand::literal(0)}, node);
        } else {
          std::vector<ir::Operand> ops{v};
          for (std::uint32_t i = 0; i < needed; ++i) ops.push_back(ir::Operand::literal(i));
          v = emit(Opcode::ExtractVectorComponentMulti, ops, node);
        }
      }
      out.push_back(v);
      needed -= std::min(n, needed);
    };
    for (ir::Operand a : args) {
      if (!ir::is_matrix(module_, type_of(a))) {
        if (needed > 0 && !failed_) take(a);
        continue;
      }
      const ir::Type mt = module_.type(type_of(a));
      for (std::uint32_t c = 0; c < mt.count && needed > 0 && !failed_; ++c)
        take(emit(Opcode::ExtractMatrixColumn, {a, int_constant(static_cast<std::int32_t>(c))}, node));
    }
    return out;
  };
  ir::Operand result = kNoValue;
  switch (rt.kind) {
    case ir::TypeKind::Scalar: result = coerce(first(args[0]), t, node); break;
    case ir::TypeKind::Vector: {
      const ir::TypeId k = ir::component_type(module_, t);
      if (args.size() == 1 && ir::is_scalar(module_, type_of(args[0]))) {
        result = splat(args[0], t, node);
      } else if (args.size() == 1 && ir::component_count(module_, type_of(args[0])) == rt.count) {
        result = coerce(args[0], t, node);
      } else {
        const auto ps = pieces(rt.count, k);
        if (ps.size() == 1 && type_of(ps[0]) == t)
          result = ps[0];
        else if (auto c = constant_composite(t, ps))
          result = *c;
        else
          result = construct(Opcode::ConstructVectorFromMultiple, t, ps, node);
      }
      break;
    }
    case ir::TypeKind::Matrix: {
      const ir::TypeId a0 = type_of(args[0]);
      if (args.size() == 1 && ir::is_scalar(module_, a0)) {
        result = construct(Opcode::ConstructMatrixFromScalar, t, {coerce(args[0], ir::component_type(module_, t), node)},
                           node);
      } else if (args.size() == 1 && ir::is_matrix(module_, a0)) {
        result = a0 == t ? args[0] : construct(Opcode::ConstructMatrixFromMatrix, t, {args[0]}, node);
      } else {
        const std::uint32_t rows = module_.type(rt.element).count;
        result = construct(Opcode::ConstructMatrixFromMultiple, t, pieces(rows * rt.count, ir::component_type(module_, t)),
                           node);
      }
      break;
    }
    case ir::TypeKind::Array:
      for (ir::Operand& a : args) a = coerce(a, rt.element, node);
      if (auto c = constant_composite(t, args))
        result = *c;
      else
        result = construct(Opcode::ConstructArray, t, args, node);
      break;
    case ir::TypeKind::Struct:
      if (args.size() != rt.members.size()) {
        unsupported(node->getLoc(), "this struct constructor");
        return {};
      }
      for (std::size_t i = 0; i < args.size(); ++i) args[i] = coerce(args[i], rt.members[i].type, node);
      if (auto c = constant_composite(t, args))
        result = *c;
      else
        result = construct(Opcode::ConstructStruct, t, args, node);
      break;
    default: unsupported(node->getLoc(), "a constructor of this type"); return {};
  }
  if (failed_) return {};
  return Value::rvalue(result);
}

}  // namespace sluice::glsl_in::detail
