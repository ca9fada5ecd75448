// Instruction selection for arithmetic, logic, comparisons, conversions and
// the GLSL built-ins. The opcode follows the operands' component kind
// (OpFAdd/OpIAdd, OpSDiv/OpUDiv, FMin/SMin/UMin, ...). SPIR-V's arithmetic
// takes no matrices, so component-wise matrix operations go column by
// column; whole-value equality of composites compares member by member and
// combines with OpLogicalAnd. Recursion here follows type nesting only.
#include <bit>
#include <optional>

#include <fmt/format.h>

#include "ir/typing.h"
#include "output/spirv/function_emitter.h"

namespace sluice::spirv::detail {
namespace {

using ir::Opcode;
using ir::ScalarKind;

// [float, int, uint, bool] variants of a component-wise operation.
struct KindOps {
  spv::Op ops[4];
};

KindOps comparison_ops(Opcode op) {
  using O = spv::Op;
  switch (op) {
    case Opcode::EqualComponentwise: return {{O::OpFOrdEqual, O::OpIEqual, O::OpIEqual, O::OpLogicalEqual}};
    case Opcode::NotEqualComponentwise:
      return {{O::OpFUnordNotEqual, O::OpINotEqual, O::OpINotEqual, O::OpLogicalNotEqual}};
    case Opcode::LessThan: return {{O::OpFOrdLessThan, O::OpSLessThan, O::OpULessThan, O::OpNop}};
    case Opcode::GreaterThan: return {{O::OpFOrdGreaterThan, O::OpSGreaterThan, O::OpUGreaterThan, O::OpNop}};
    case Opcode::LessThanEqual: return {{O::OpFOrdLessThanEqual, O::OpSLessThanEqual, O::OpULessThanEqual, O::OpNop}};
    case Opcode::GreaterThanEqual:
      return {{O::OpFOrdGreaterThanEqual, O::OpSGreaterThanEqual, O::OpUGreaterThanEqual, O::OpNop}};
    default: return {{O::OpNop, O::OpNop, O::OpNop, O::OpNop}};
  }
}

std::optional<GLSLstd450> float_unary(Opcode op) {
  switch (op) {
    case Opcode::Radians: return GLSLstd450Radians;
    case Opcode::Degrees: return GLSLstd450Degrees;
    case Opcode::Sin: return GLSLstd450Sin;
    case Opcode::Cos: return GLSLstd450Cos;
    case Opcode::Tan: return GLSLstd450Tan;
    case Opcode::Asin: return GLSLstd450Asin;
    case Opcode::Acos: return GLSLstd450Acos;
    case Opcode::Atan: return GLSLstd450Atan;
    case Opcode::Sinh: return GLSLstd450Sinh;
    case Opcode::Cosh: return GLSLstd450Cosh;
    case Opcode::Tanh: return GLSLstd450Tanh;
    case Opcode::Asinh: return GLSLstd450Asinh;
    case Opcode::Acosh: return GLSLstd450Acosh;
    case Opcode::Atanh: return GLSLstd450Atanh;
    case Opcode::Exp: return GLSLstd450Exp;
    case Opcode::Log: return GLSLstd450Log;
    case Opcode::Exp2: return GLSLstd450Exp2;
    case Opcode::Log2: return GLSLstd450Log2;
    case Opcode::Sqrt: return GLSLstd450Sqrt;
    case Opcode::InverseSqrt: return GLSLstd450InverseSqrt;
    case Opcode::Floor: return GLSLstd450Floor;
    case Opcode::Trunc: return GLSLstd450Trunc;
    case Opcode::Round: return GLSLstd450Round;
    case Opcode::RoundEven: return GLSLstd450RoundEven;
    case Opcode::Ceil: return GLSLstd450Ceil;
    case Opcode::Fract: return GLSLstd450Fract;
    case Opcode::Length: return GLSLstd450Length;
    case Opcode::Normalize: return GLSLstd450Normalize;
    case Opcode::Determinant: return GLSLstd450Determinant;
    case Opcode::Inverse: return GLSLstd450MatrixInverse;
    case Opcode::PackSnorm4x8: return GLSLstd450PackSnorm4x8;
    case Opcode::PackUnorm4x8: return GLSLstd450PackUnorm4x8;
    case Opcode::PackSnorm2x16: return GLSLstd450PackSnorm2x16;
    case Opcode::PackUnorm2x16: return GLSLstd450PackUnorm2x16;
    case Opcode::PackHalf2x16: return GLSLstd450PackHalf2x16;
    case Opcode::UnpackSnorm4x8: return GLSLstd450UnpackSnorm4x8;
    case Opcode::UnpackUnorm4x8: return GLSLstd450UnpackUnorm4x8;
    case Opcode::UnpackSnorm2x16: return GLSLstd450UnpackSnorm2x16;
    case Opcode::UnpackUnorm2x16: return GLSLstd450UnpackUnorm2x16;
    case Opcode::UnpackHalf2x16: return GLSLstd450UnpackHalf2x16;
    default: return std::nullopt;
  }
}

std::optional<GLSLstd450> float_binary(Opcode op) {
  switch (op) {
    case Opcode::Atan2: return GLSLstd450Atan2;
    case Opcode::Pow: return GLSLstd450Pow;
    case Opcode::Step: return GLSLstd450Step;
    case Opcode::Distance: return GLSLstd450Distance;
    case Opcode::Cross: return GLSLstd450Cross;
    case Opcode::Reflect: return GLSLstd450Reflect;
    case Opcode::Ldexp: return GLSLstd450Ldexp;
    default: return std::nullopt;
  }
}

}  // namespace

std::uint32_t FunctionEmitter::arith(Opcode opcode, ir::TypeId t, std::uint32_t a, std::uint32_t b) {
  const ir::Type& ty = m_.type(t);
  if (ty.kind == ir::TypeKind::Matrix) {
    std::vector<std::uint32_t> columns;
    for (std::uint32_t c = 0; c < ty.count; ++c)
      columns.push_back(arith(opcode, ty.element, extract(ty.element, a, c), extract(ty.element, b, c)));
    return construct(t, columns);
  }
  const ScalarKind k = ir::component_kind(m_, t).value_or(ScalarKind::Float);
  const bool f = k == ScalarKind::Float;
  spv::Op o = spv::Op::OpNop;
  switch (opcode) {
    case Opcode::Add: o = f ? spv::Op::OpFAdd : spv::Op::OpIAdd; break;
    case Opcode::Sub: o = f ? spv::Op::OpFSub : spv::Op::OpISub; break;
    case Opcode::Mul: o = f ? spv::Op::OpFMul : spv::Op::OpIMul; break;
    case Opcode::Div: o = f ? spv::Op::OpFDiv : (k == ScalarKind::Int ? spv::Op::OpSDiv : spv::Op::OpUDiv); break;
    default: mc_.fail("arith() on a non-arithmetic opcode"); return 0;
  }
  return op(o, type_id(t), {a, b});
}

std::uint32_t FunctionEmitter::negate(ir::TypeId t, std::uint32_t a) {
  const ir::Type& ty = m_.type(t);
  if (ty.kind == ir::TypeKind::Matrix) {
    std::vector<std::uint32_t> columns;
    for (std::uint32_t c = 0; c < ty.count; ++c) columns.push_back(negate(ty.element, extract(ty.element, a, c)));
    return construct(t, columns);
  }
  const bool f = ir::component_kind(m_, t) == ScalarKind::Float;
  return op(f ? spv::Op::OpFNegate : spv::Op::OpSNegate, type_id(t), {a});
}

std::uint32_t FunctionEmitter::splat(ir::TypeId vector, std::uint32_t scalar) {
  const std::uint32_t n = ir::component_count(m_, vector);
  if (n <= 1 || !ir::is_vector(m_, vector)) return scalar;
  std::vector<std::uint32_t> parts(n, scalar);
  return construct(vector, parts);
}

std::uint32_t FunctionEmitter::convert(std::uint32_t v, ir::TypeId from, ir::TypeId to) {
  if (from == to) return v;
  const auto fk = ir::component_kind(m_, from), tk = ir::component_kind(m_, to);
  if (!fk || !tk) {
    mc_.fail(fmt::format("cannot convert {} to {}", ir::describe_type(m_, from), ir::describe_type(m_, to)));
    return v;
  }
  const std::uint32_t rt = type_id(to);
  // float <-> double (GLSL 4.60 §5.4.1: double(f), float(d)).
  if (*fk == ScalarKind::Float && *tk == ScalarKind::Float) return op(spv::Op::OpFConvert, rt, {v});
  if (*fk == *tk) return op(spv::Op::OpCopyObject, rt, {v});  // same kind, different IR type: cannot happen typed
  if (*fk == ScalarKind::Bool) return op(spv::Op::OpSelect, rt, {v, mc_.splat_number(to, 1), mc_.splat_number(to, 0)});
  if (*tk == ScalarKind::Bool) {
    const bool f = *fk == ScalarKind::Float;
    return op(f ? spv::Op::OpFUnordNotEqual : spv::Op::OpINotEqual, rt, {v, mc_.splat_number(from, 0)});
  }
  if (*fk == ScalarKind::Float) return op(*tk == ScalarKind::Int ? spv::Op::OpConvertFToS : spv::Op::OpConvertFToU, rt, {v});
  if (*tk == ScalarKind::Float) return op(*fk == ScalarKind::Int ? spv::Op::OpConvertSToF : spv::Op::OpConvertUToF, rt, {v});
  return op(spv::Op::OpBitcast, rt, {v});  // int <-> uint
}

std::uint32_t FunctionEmitter::whole_equal(ir::TypeId t, std::uint32_t a, std::uint32_t b) {
  const ir::Type& ty = type_at(t);
  const std::uint32_t bool_type = type_id(ir::predefined::kBool);
  auto all_of = [&](const std::vector<std::uint32_t>& parts) {
    std::uint32_t r = parts.empty() ? mc_.bool_constant(true) : parts[0];
    for (std::size_t i = 1; i < parts.size(); ++i) r = op(spv::Op::OpLogicalAnd, bool_type, {r, parts[i]});
    return r;
  };
  switch (ty.kind) {
    case ir::TypeKind::Scalar:
    case ir::TypeKind::Vector: {
      const ScalarKind k = *ir::component_kind(m_, t);
      const spv::Op o = comparison_ops(Opcode::EqualComponentwise).ops[static_cast<int>(k)];
      const std::uint32_t c = op(o, type_id(mc_.vector_of(ScalarKind::Bool, ir::component_count(m_, t))), {a, b});
      return ty.kind == ir::TypeKind::Vector ? op(spv::Op::OpAll, bool_type, {c}) : c;
    }
    case ir::TypeKind::Matrix:
    case ir::TypeKind::Array:
    case ir::TypeKind::Struct: {
      std::vector<std::uint32_t> parts;
      const std::uint32_t n = ty.kind == ir::TypeKind::Struct ? static_cast<std::uint32_t>(ty.members.size()) : ty.count;
      for (std::uint32_t i = 0; i < n; ++i) {
        const ir::TypeId et = ty.kind == ir::TypeKind::Struct ? ty.members[i].type : ty.element;
        parts.push_back(whole_equal(et, extract(et, a, i), extract(et, b, i)));
      }
      return all_of(parts);
    }
    default:
      mc_.fail(fmt::format("cannot compare values of type {}", ir::describe_type(m_, t)));
      return 0;
  }
}

std::uint32_t FunctionEmitter::select(ir::TypeId t, std::uint32_t cond, ir::TypeId cond_type, std::uint32_t a,
                                      std::uint32_t b) {
  const ir::Type& ty = m_.type(t);
  if (mc_.features.select_composites() || ty.kind == ir::TypeKind::Scalar) return op(spv::Op::OpSelect, type_id(t), {cond, a, b});
  if (ty.kind == ir::TypeKind::Vector) {
    // Before SPIR-V 1.4 the condition of a vector select is a vector.
    if (ir::is_scalar(m_, cond_type)) cond = splat(mc_.vector_of(ScalarKind::Bool, ty.count), cond);
    return op(spv::Op::OpSelect, type_id(t), {cond, a, b});
  }
  if (!ir::is_scalar(m_, cond_type)) {
    mc_.fail("a component-wise select of a composite");
    return 0;
  }
  std::vector<std::uint32_t> parts;
  const std::uint32_t n = ty.kind == ir::TypeKind::Struct ? static_cast<std::uint32_t>(ty.members.size()) : ty.count;
  for (std::uint32_t i = 0; i < n; ++i) {
    const ir::TypeId et = ty.kind == ir::TypeKind::Struct ? ty.members[i].type : ty.element;
    parts.push_back(select(et, cond, cond_type, extract(et, a, i), extract(et, b, i)));
  }
  return construct(t, parts);
}

void FunctionEmitter::emit_unary(const ir::Instruction& inst) {
  if (!inst.result.valid()) return;
  const ir::TypeId rt = m_.reg(inst.result).type;
  const ir::TypeId at = type_of(inst.operands[0]);
  const std::uint32_t a = value(inst.operands[0]);
  const std::uint32_t t = type_id(rt);
  const ScalarKind k = ir::component_kind(m_, at).value_or(ScalarKind::Float);
  if (auto g = float_unary(inst.opcode)) return set_result(inst, glsl(*g, t, {a}));
  auto derivative = [&](spv::Op o, bool control) {
    if (control) mc_.require(spv::Capability::DerivativeControl);
    set_result(inst, op(o, t, {a}));
  };
  switch (inst.opcode) {
    case Opcode::Negate: return set_result(inst, negate(rt, a));
    case Opcode::LogicalNot: return set_result(inst, op(spv::Op::OpLogicalNot, t, {a}));
    case Opcode::BitwiseNot: return set_result(inst, op(spv::Op::OpNot, t, {a}));
    case Opcode::Abs: return set_result(inst, glsl(k == ScalarKind::Float ? GLSLstd450FAbs : GLSLstd450SAbs, t, {a}));
    case Opcode::Sign: return set_result(inst, glsl(k == ScalarKind::Float ? GLSLstd450FSign : GLSLstd450SSign, t, {a}));
    case Opcode::IsNan: return set_result(inst, op(spv::Op::OpIsNan, t, {a}));
    case Opcode::IsInf: return set_result(inst, op(spv::Op::OpIsInf, t, {a}));
    case Opcode::Transpose: return set_result(inst, op(spv::Op::OpTranspose, t, {a}));
    case Opcode::Any: return set_result(inst, op(spv::Op::OpAny, t, {a}));
    case Opcode::All: return set_result(inst, op(spv::Op::OpAll, t, {a}));
    case Opcode::BitCount: return set_result(inst, op(spv::Op::OpBitCount, t, {a}));
    case Opcode::FindLSB: return set_result(inst, glsl(GLSLstd450FindILsb, t, {a}));
    case Opcode::FindMSB:
      return set_result(inst, glsl(k == ScalarKind::Int ? GLSLstd450FindSMsb : GLSLstd450FindUMsb, t, {a}));
    case Opcode::BitfieldReverse: return set_result(inst, op(spv::Op::OpBitReverse, t, {a}));
    case Opcode::AnyInvocation:
    case Opcode::AllInvocations:
    case Opcode::AllInvocationsEqual: {
      // GL_ARB_shader_group_vote: core group operations from SPIR-V 1.3, the
      // KHR extension before.
      const bool core = mc_.features.version >= 0x00010300;
      const std::uint32_t subgroup = mc_.uint_constant(3);
      if (core) {
        mc_.require(spv::Capability::GroupNonUniformVote);
        const spv::Op o = inst.opcode == Opcode::AnyInvocation   ? spv::Op::OpGroupNonUniformAny
                          : inst.opcode == Opcode::AllInvocations ? spv::Op::OpGroupNonUniformAll
                                                                  : spv::Op::OpGroupNonUniformAllEqual;
        return set_result(inst, op(o, t, {subgroup, a}));
      }
      mc_.require(spv::Capability::SubgroupVoteKHR);
      mc_.require_extension("SPV_KHR_subgroup_vote");
      const spv::Op o = inst.opcode == Opcode::AnyInvocation   ? spv::Op::OpSubgroupAnyKHR
                        : inst.opcode == Opcode::AllInvocations ? spv::Op::OpSubgroupAllKHR
                                                                : spv::Op::OpSubgroupAllEqualKHR;
      return set_result(inst, op(o, t, {a}));
    }
    case Opcode::DFdx: return derivative(spv::Op::OpDPdx, false);
    case Opcode::DFdy: return derivative(spv::Op::OpDPdy, false);
    case Opcode::Fwidth: return derivative(spv::Op::OpFwidth, false);
    case Opcode::DFdxFine: return derivative(spv::Op::OpDPdxFine, true);
    case Opcode::DFdyFine: return derivative(spv::Op::OpDPdyFine, true);
    case Opcode::FwidthFine: return derivative(spv::Op::OpFwidthFine, true);
    case Opcode::DFdxCoarse: return derivative(spv::Op::OpDPdxCoarse, true);
    case Opcode::DFdyCoarse: return derivative(spv::Op::OpDPdyCoarse, true);
    case Opcode::FwidthCoarse: return derivative(spv::Op::OpFwidthCoarse, true);
    default: return mc_.fail(fmt::format("no SPIR-V for unary {}", ir::name(inst.opcode)));
  }
}

bool FunctionEmitter::emit_with_output_pointers(const ir::Instruction& inst) {
  // The struct-returning SPIR-V forms, then a store through each out
  // pointer (operand role OutPointer, in order), so the pointer may be a
  // promoted variable, a swizzle or block memory like any other store target.
  const ir::Operand* outputs[2] = {nullptr, nullptr};
  std::uint32_t members[2] = {0, 0};  // which struct member goes to each output
  std::vector<std::uint32_t> args;
  std::size_t out_count = 0;
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    if (ir::operand_role(inst.opcode, i) != ir::OperandRole::OutPointer) args.push_back(value(inst.operands[i]));
    else if (out_count < 2) outputs[out_count++] = &inst.operands[i];
  }
  if (out_count == 0) return false;
  const ir::TypeId at = type_of(inst.operands[0]);
  std::uint32_t result_types[2] = {type_id(at), type_id(at)};
  spv::Op o = spv::Op::OpNop;
  std::optional<GLSLstd450> ext;
  switch (inst.opcode) {
    case Opcode::Modf: ext = GLSLstd450ModfStruct; members[0] = 1; break;
    case Opcode::Frexp:
      ext = GLSLstd450FrexpStruct;
      result_types[1] = type_id(mc_.vector_of(ScalarKind::Int, ir::component_count(m_, at)));
      members[0] = 1;
      break;
    case Opcode::UaddCarry: o = spv::Op::OpIAddCarry; members[0] = 1; break;
    case Opcode::UsubBorrow: o = spv::Op::OpISubBorrow; members[0] = 1; break;
    case Opcode::UmulExtended:
    case Opcode::ImulExtended:
      // SPIR-V: member 0 holds the low bits, member 1 the high; the IR's
      // pointers are (msb, lsb).
      o = inst.opcode == Opcode::UmulExtended ? spv::Op::OpUMulExtended : spv::Op::OpSMulExtended;
      members[0] = 1;
      members[1] = 0;
      break;
    default: return false;
  }
  const std::uint32_t st = mc_.anonymous_struct(result_types);
  std::uint32_t result = 0;
  if (ext) {
    result = mc_.new_id();
    body_.op(spv::Op::OpExtInst, {st, result, mc_.glsl_std_450(), static_cast<std::uint32_t>(*ext)}, args);
  } else {
    result = op(o, st, args);
  }
  for (int k = 0; k < 2; ++k) {
    if (!outputs[k]) continue;
    const std::uint32_t part = op(spv::Op::OpCompositeExtract, result_types[members[k]], {result, members[k]});
    store(pointer(*outputs[k]), part);
  }
  if (inst.result.valid()) set_result(inst, op(spv::Op::OpCompositeExtract, result_types[0], {result, 0}));
  return true;
}

void FunctionEmitter::emit_binary(const ir::Instruction& inst) {
  if (emit_with_output_pointers(inst)) return;
  if (!inst.result.valid()) return;
  const ir::TypeId rt = m_.reg(inst.result).type;
  const ir::TypeId at = type_of(inst.operands[0]);
  const std::uint32_t a = value(inst.operands[0]);
  std::uint32_t b = value(inst.operands[1]);
  const std::uint32_t t = type_id(rt);
  const ScalarKind k = ir::component_kind(m_, at).value_or(ScalarKind::Float);
  if (auto g = float_binary(inst.opcode)) return set_result(inst, glsl(*g, t, {a, b}));
  switch (inst.opcode) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Div: return set_result(inst, arith(inst.opcode, rt, a, b));
    case Opcode::IMod: return set_result(inst, op(k == ScalarKind::Int ? spv::Op::OpSMod : spv::Op::OpUMod, t, {a, b}));
    case Opcode::Mod: return set_result(inst, op(spv::Op::OpFMod, t, {a, b}));
    case Opcode::VectorTimesScalar: return set_result(inst, op(spv::Op::OpVectorTimesScalar, t, {a, b}));
    case Opcode::MatrixTimesScalar: return set_result(inst, op(spv::Op::OpMatrixTimesScalar, t, {a, b}));
    case Opcode::VectorTimesMatrix: return set_result(inst, op(spv::Op::OpVectorTimesMatrix, t, {a, b}));
    case Opcode::MatrixTimesVector: return set_result(inst, op(spv::Op::OpMatrixTimesVector, t, {a, b}));
    case Opcode::MatrixTimesMatrix: return set_result(inst, op(spv::Op::OpMatrixTimesMatrix, t, {a, b}));
    case Opcode::OuterProduct: return set_result(inst, op(spv::Op::OpOuterProduct, t, {a, b}));
    case Opcode::Dot:
      // OpDot takes vectors only (SPIR-V §3.52.13); GLSL's dot(float, float) is the product.
      if (m_.type(at).kind != ir::TypeKind::Vector) return set_result(inst, op(spv::Op::OpFMul, t, {a, b}));
      return set_result(inst, op(spv::Op::OpDot, t, {a, b}));
    case Opcode::LogicalAnd: return set_result(inst, op(spv::Op::OpLogicalAnd, t, {a, b}));
    case Opcode::LogicalOr: return set_result(inst, op(spv::Op::OpLogicalOr, t, {a, b}));
    case Opcode::LogicalXor: return set_result(inst, op(spv::Op::OpLogicalNotEqual, t, {a, b}));
    case Opcode::Equal: return set_result(inst, whole_equal(at, a, b));
    case Opcode::NotEqual: {
      // Scalars and vectors: the negated comparison itself (any(notEqual)
      // for vectors), one instruction less than not(all(equal)). Floats use
      // the unordered not-equal, the negation of the ordered equal (GLSL's
      // != is true when either side is NaN), as glslang writes it.
      const ir::Type& ty = type_at(at);
      if (ty.kind == ir::TypeKind::Scalar || ty.kind == ir::TypeKind::Vector) {
        const ScalarKind kind = *ir::component_kind(m_, at);
        const spv::Op o = comparison_ops(Opcode::NotEqualComponentwise).ops[static_cast<int>(kind)];
        const std::uint32_t c = op(o, type_id(mc_.vector_of(ScalarKind::Bool, ir::component_count(m_, at))), {a, b});
        return set_result(inst, ty.kind == ir::TypeKind::Vector ? op(spv::Op::OpAny, t, {c}) : c);
      }
      return set_result(inst, op(spv::Op::OpLogicalNot, t, {whole_equal(at, a, b)}));
    }
    case Opcode::EqualComponentwise:
    case Opcode::NotEqualComponentwise:
    case Opcode::LessThan:
    case Opcode::GreaterThan:
    case Opcode::LessThanEqual:
    case Opcode::GreaterThanEqual: {
      const spv::Op o = comparison_ops(inst.opcode).ops[static_cast<int>(k)];
      if (o == spv::Op::OpNop) return mc_.fail(fmt::format("{} of bools", ir::name(inst.opcode)));
      return set_result(inst, op(o, t, {a, b}));
    }
    case Opcode::BitShiftLeft:
    case Opcode::BitShiftRight: {
      const ir::TypeId bt = type_of(inst.operands[1]);
      if (ir::is_vector(m_, at) && ir::is_scalar(m_, bt))
        b = splat(mc_.vector_of(*ir::component_kind(m_, bt), ir::component_count(m_, at)), b);
      const spv::Op o = inst.opcode == Opcode::BitShiftLeft ? spv::Op::OpShiftLeftLogical
                        : k == ScalarKind::Int              ? spv::Op::OpShiftRightArithmetic
                                                            : spv::Op::OpShiftRightLogical;
      return set_result(inst, op(o, t, {a, b}));
    }
    case Opcode::BitwiseOr: return set_result(inst, op(spv::Op::OpBitwiseOr, t, {a, b}));
    case Opcode::BitwiseXor: return set_result(inst, op(spv::Op::OpBitwiseXor, t, {a, b}));
    case Opcode::BitwiseAnd: return set_result(inst, op(spv::Op::OpBitwiseAnd, t, {a, b}));
    case Opcode::Min:
      return set_result(inst, glsl(k == ScalarKind::Float ? GLSLstd450FMin : k == ScalarKind::Int ? GLSLstd450SMin : GLSLstd450UMin, t, {a, b}));
    case Opcode::Max:
      return set_result(inst, glsl(k == ScalarKind::Float ? GLSLstd450FMax : k == ScalarKind::Int ? GLSLstd450SMax : GLSLstd450UMax, t, {a, b}));
    default: return mc_.fail(fmt::format("no SPIR-V for binary {}", ir::name(inst.opcode)));
  }
}

void FunctionEmitter::emit_builtin(const ir::Instruction& inst) {
  // Barriers: GLSL's barrier() and memoryBarrier*() as glslang spells them
  // (scopes Device = 1, Workgroup = 2; AcquireRelease plus the memory kinds).
  auto barrier = [&](std::uint32_t scope, std::uint32_t semantics) {
    body_.op(spv::Op::OpMemoryBarrier, {mc_.uint_constant(scope), mc_.uint_constant(semantics)});
  };
  constexpr std::uint32_t kAcqRel = 0x8, kUniform = 0x40, kWorkgroup = 0x100, kImage = 0x800;
  switch (inst.opcode) {
    case Opcode::ControlBarrier:
      // A tessellation control shader's barrier() orders the patch's
      // outputs, not shared memory: glslang gives it memory scope
      // Invocation (4) and no semantics (GLSL 4.60 §8.16).
      if (m_.shader().stage == ir::ShaderStage::TessControl) {
        body_.op(spv::Op::OpControlBarrier, {mc_.uint_constant(2), mc_.uint_constant(4), mc_.uint_constant(0)});
        return;
      }
      body_.op(spv::Op::OpControlBarrier,
               {mc_.uint_constant(2), mc_.uint_constant(2), mc_.uint_constant(kAcqRel | kWorkgroup)});
      return;
    case Opcode::EmitVertex: body_.op(spv::Op::OpEmitVertex, {}); return;
    case Opcode::Demote:
      // SPV_EXT_demote_to_helper_invocation (core in SPIR-V 1.6).
      mc_.require(spv::Capability::DemoteToHelperInvocation);
      mc_.require_extension("SPV_EXT_demote_to_helper_invocation");
      body_.op(spv::Op::OpDemoteToHelperInvocation, {});
      return;
    case Opcode::EndPrimitive: body_.op(spv::Op::OpEndPrimitive, {}); return;
    case Opcode::EmitStreamVertex:
    case Opcode::EndStreamPrimitive:
      mc_.require(spv::Capability::GeometryStreams);
      body_.op(inst.opcode == Opcode::EmitStreamVertex ? spv::Op::OpEmitStreamVertex : spv::Op::OpEndStreamPrimitive,
               {value(inst.operands[0])});
      return;
    case Opcode::MemoryBarrier: return barrier(1, kAcqRel | kUniform | kWorkgroup | kImage);
    case Opcode::MemoryBarrierBuffer: return barrier(1, kAcqRel | kUniform);
    case Opcode::MemoryBarrierShared: return barrier(1, kAcqRel | kWorkgroup);
    case Opcode::MemoryBarrierImage: return barrier(1, kAcqRel | kImage);
    case Opcode::GroupMemoryBarrier: return barrier(2, kAcqRel | kUniform | kWorkgroup | kImage);
    default: break;
  }
  if (emit_with_output_pointers(inst)) return;
  if (!inst.result.valid()) return;
  const ir::TypeId rt = m_.reg(inst.result).type;
  const std::uint32_t t = type_id(rt);
  std::vector<std::uint32_t> v;
  for (ir::Operand o : inst.operands) v.push_back(value(o));
  const ScalarKind k = ir::component_kind(m_, type_of(inst.operands[0])).value_or(ScalarKind::Float);
  switch (inst.opcode) {
    case Opcode::Clamp:
      return set_result(inst, glsl(k == ScalarKind::Float ? GLSLstd450FClamp : k == ScalarKind::Int ? GLSLstd450SClamp : GLSLstd450UClamp, t, {v[0], v[1], v[2]}));
    case Opcode::Mix: return set_result(inst, glsl(GLSLstd450FMix, t, {v[0], v[1], v[2]}));
    case Opcode::Smoothstep: return set_result(inst, glsl(GLSLstd450SmoothStep, t, {v[0], v[1], v[2]}));
    case Opcode::Fma: return set_result(inst, glsl(GLSLstd450Fma, t, {v[0], v[1], v[2]}));
    case Opcode::FaceForward: return set_result(inst, glsl(GLSLstd450FaceForward, t, {v[0], v[1], v[2]}));
    case Opcode::Refract: return set_result(inst, glsl(GLSLstd450Refract, t, {v[0], v[1], v[2]}));
    case Opcode::Select: return set_result(inst, select(rt, v[0], type_of(inst.operands[0]), v[1], v[2]));
    case Opcode::BitfieldExtract:
      return set_result(inst, op(k == ScalarKind::Int ? spv::Op::OpBitFieldSExtract : spv::Op::OpBitFieldUExtract, t,
                                 {v[0], v[1], v[2]}));
    case Opcode::BitfieldInsert: return set_result(inst, op(spv::Op::OpBitFieldInsert, t, {v[0], v[1], v[2], v[3]}));
    default: return mc_.fail(fmt::format("no SPIR-V for {}", ir::name(inst.opcode)));
  }
}

}  // namespace sluice::spirv::detail
