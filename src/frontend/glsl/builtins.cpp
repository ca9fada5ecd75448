// GLSL built-in functions: glslang resolves each call to an operator
// (EOpSin, EOpMix, ...); this file maps the operators to IR opcodes, splats
// the scalar arguments GLSL lets mix with vectors, and passes pointers for
// the built-ins with out parameters (through a temporary, as for calls).
// Textures and images are in textures.cpp.
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {
namespace {

using glslang::TOperator;
using ir::Opcode;

// Built-ins of one argument whose IR opcode takes that argument as is.
std::optional<Opcode> unary_builtin(TOperator op) {
  switch (op) {
    case glslang::EOpRadians: return Opcode::Radians;
    case glslang::EOpDegrees: return Opcode::Degrees;
    case glslang::EOpSin: return Opcode::Sin;
    case glslang::EOpCos: return Opcode::Cos;
    case glslang::EOpTan: return Opcode::Tan;
    case glslang::EOpAsin: return Opcode::Asin;
    case glslang::EOpAcos: return Opcode::Acos;
    case glslang::EOpAtan: return Opcode::Atan;
    case glslang::EOpSinh: return Opcode::Sinh;
    case glslang::EOpCosh: return Opcode::Cosh;
    case glslang::EOpTanh: return Opcode::Tanh;
    case glslang::EOpAsinh: return Opcode::Asinh;
    case glslang::EOpAcosh: return Opcode::Acosh;
    case glslang::EOpAtanh: return Opcode::Atanh;
    case glslang::EOpExp: return Opcode::Exp;
    case glslang::EOpLog: return Opcode::Log;
    case glslang::EOpExp2: return Opcode::Exp2;
    case glslang::EOpLog2: return Opcode::Log2;
    case glslang::EOpSqrt: return Opcode::Sqrt;
    case glslang::EOpInverseSqrt: return Opcode::InverseSqrt;
    case glslang::EOpAbs: return Opcode::Abs;
    case glslang::EOpSign: return Opcode::Sign;
    case glslang::EOpFloor: return Opcode::Floor;
    case glslang::EOpTrunc: return Opcode::Trunc;
    case glslang::EOpRound: return Opcode::Round;
    case glslang::EOpRoundEven: return Opcode::RoundEven;
    case glslang::EOpCeil: return Opcode::Ceil;
    case glslang::EOpFract: return Opcode::Fract;
    case glslang::EOpIsNan: return Opcode::IsNan;
    case glslang::EOpIsInf: return Opcode::IsInf;
    case glslang::EOpLength: return Opcode::Length;
    case glslang::EOpNormalize: return Opcode::Normalize;
    case glslang::EOpTranspose: return Opcode::Transpose;
    case glslang::EOpDeterminant: return Opcode::Determinant;
    case glslang::EOpMatrixInverse: return Opcode::Inverse;
    case glslang::EOpAny: return Opcode::Any;
    case glslang::EOpAll: return Opcode::All;
    case glslang::EOpBitCount: return Opcode::BitCount;
    case glslang::EOpFindLSB: return Opcode::FindLSB;
    case glslang::EOpFindMSB: return Opcode::FindMSB;
    case glslang::EOpBitFieldReverse: return Opcode::BitfieldReverse;
    case glslang::EOpDPdx: return Opcode::DFdx;
    case glslang::EOpDPdy: return Opcode::DFdy;
    case glslang::EOpFwidth: return Opcode::Fwidth;
    case glslang::EOpDPdxFine: return Opcode::DFdxFine;
    case glslang::EOpDPdyFine: return Opcode::DFdyFine;
    case glslang::EOpFwidthFine: return Opcode::FwidthFine;
    case glslang::EOpDPdxCoarse: return Opcode::DFdxCoarse;
    case glslang::EOpDPdyCoarse: return Opcode::DFdyCoarse;
    case glslang::EOpFwidthCoarse: return Opcode::FwidthCoarse;
    case glslang::EOpPackSnorm4x8: return Opcode::PackSnorm4x8;
    case glslang::EOpPackUnorm4x8: return Opcode::PackUnorm4x8;
    case glslang::EOpPackSnorm2x16: return Opcode::PackSnorm2x16;
    case glslang::EOpPackUnorm2x16: return Opcode::PackUnorm2x16;
    case glslang::EOpPackHalf2x16: return Opcode::PackHalf2x16;
    case glslang::EOpUnpackSnorm4x8: return Opcode::UnpackSnorm4x8;
    case glslang::EOpUnpackUnorm4x8: return Opcode::UnpackUnorm4x8;
    case glslang::EOpUnpackSnorm2x16: return Opcode::UnpackSnorm2x16;
    case glslang::EOpUnpackUnorm2x16: return Opcode::UnpackUnorm2x16;
    case glslang::EOpUnpackHalf2x16: return Opcode::UnpackHalf2x16;
    case glslang::EOpAnyInvocation: return Opcode::AnyInvocation;
    case glslang::EOpAllInvocations: return Opcode::AllInvocations;
    case glslang::EOpAllInvocationsEqual: return Opcode::AllInvocationsEqual;
    default: return std::nullopt;
  }
}

// Built-ins of several value arguments. With `splat`, GLSL lets some
// arguments be scalars where others are vectors (min(v, 1.0), clamp(v,
// 0.0, 1.0), step(0.5, v)); those are splatted to the vectors' shape.
struct MultiBuiltin {
  Opcode opcode;
  std::size_t arguments;
  bool splat = false;
};

std::optional<MultiBuiltin> multi_builtin(TOperator op) {
  switch (op) {
    case glslang::EOpAtan: return MultiBuiltin{Opcode::Atan2, 2};
    case glslang::EOpPow: return MultiBuiltin{Opcode::Pow, 2, true};
    case glslang::EOpMod: return MultiBuiltin{Opcode::Mod, 2, true};
    case glslang::EOpMin: return MultiBuiltin{Opcode::Min, 2, true};
    case glslang::EOpMax: return MultiBuiltin{Opcode::Max, 2, true};
    case glslang::EOpStep: return MultiBuiltin{Opcode::Step, 2, true};
    case glslang::EOpDistance: return MultiBuiltin{Opcode::Distance, 2};
    case glslang::EOpDot: return MultiBuiltin{Opcode::Dot, 2};
    case glslang::EOpCross: return MultiBuiltin{Opcode::Cross, 2};
    case glslang::EOpReflect: return MultiBuiltin{Opcode::Reflect, 2};
    case glslang::EOpLdexp: return MultiBuiltin{Opcode::Ldexp, 2};
    case glslang::EOpOuterProduct: return MultiBuiltin{Opcode::OuterProduct, 2};
    case glslang::EOpMul: return MultiBuiltin{Opcode::Mul, 2};  // matrixCompMult
    case glslang::EOpClamp: return MultiBuiltin{Opcode::Clamp, 3, true};
    case glslang::EOpMix: return MultiBuiltin{Opcode::Mix, 3, true};
    case glslang::EOpSmoothStep: return MultiBuiltin{Opcode::Smoothstep, 3, true};
    case glslang::EOpFma: return MultiBuiltin{Opcode::Fma, 3};
    case glslang::EOpFaceForward: return MultiBuiltin{Opcode::FaceForward, 3};
    case glslang::EOpRefract: return MultiBuiltin{Opcode::Refract, 3};
    case glslang::EOpBitfieldExtract: return MultiBuiltin{Opcode::BitfieldExtract, 3};
    case glslang::EOpBitfieldInsert: return MultiBuiltin{Opcode::BitfieldInsert, 4};
    default: return std::nullopt;
  }
}

std::optional<Opcode> barrier(TOperator op) {
  switch (op) {
    case glslang::EOpBarrier: return Opcode::ControlBarrier;
    case glslang::EOpMemoryBarrier: return Opcode::MemoryBarrier;
    case glslang::EOpMemoryBarrierBuffer: return Opcode::MemoryBarrierBuffer;
    case glslang::EOpMemoryBarrierImage: return Opcode::MemoryBarrierImage;
    case glslang::EOpMemoryBarrierShared: return Opcode::MemoryBarrierShared;
    case glslang::EOpGroupMemoryBarrier: return Opcode::GroupMemoryBarrier;
    default: return std::nullopt;
  }
}

// Geometry shaders' vertex emission (GLSL 4.60 §8.13); the stream forms
// take the stream, a constant expression.
std::optional<Opcode> emission(TOperator op) {
  switch (op) {
    case glslang::EOpEmitVertex: return Opcode::EmitVertex;
    case glslang::EOpEndPrimitive: return Opcode::EndPrimitive;
    case glslang::EOpEmitStreamVertex: return Opcode::EmitStreamVertex;
    case glslang::EOpEndStreamPrimitive: return Opcode::EndStreamPrimitive;
    default: return std::nullopt;
  }
}

std::optional<Opcode> atomic(TOperator op) {
  switch (op) {
    case glslang::EOpAtomicAdd: return Opcode::AtomicAdd;
    case glslang::EOpAtomicMin: return Opcode::AtomicMin;
    case glslang::EOpAtomicMax: return Opcode::AtomicMax;
    case glslang::EOpAtomicAnd: return Opcode::AtomicAnd;
    case glslang::EOpAtomicOr: return Opcode::AtomicOr;
    case glslang::EOpAtomicXor: return Opcode::AtomicXor;
    case glslang::EOpAtomicExchange: return Opcode::AtomicExchange;
    case glslang::EOpAtomicCompSwap: return Opcode::AtomicCompSwap;
    default: return std::nullopt;
  }
}

// Built-ins whose trailing arguments are out parameters: how many values
// come first.
std::optional<std::pair<Opcode, std::size_t>> with_out_arguments(TOperator op) {
  switch (op) {
    case glslang::EOpModf: return std::pair{Opcode::Modf, std::size_t{1}};
    case glslang::EOpFrexp: return std::pair{Opcode::Frexp, std::size_t{1}};
    case glslang::EOpAddCarry: return std::pair{Opcode::UaddCarry, std::size_t{2}};
    case glslang::EOpSubBorrow: return std::pair{Opcode::UsubBorrow, std::size_t{2}};
    case glslang::EOpUMulExtended: return std::pair{Opcode::UmulExtended, std::size_t{2}};
    case glslang::EOpIMulExtended: return std::pair{Opcode::ImulExtended, std::size_t{2}};
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<Value> Translator::builtin(const TIntermOperator* node, std::span<TIntermTyped* const> args) {
  if (failed_) return Value{};
  const TOperator op = node->getOp();
  if (op > glslang::EOpTextureGuardBegin && op < glslang::EOpTextureGuardEnd) return texture(node, args);
  if (op > glslang::EOpImageGuardBegin && op < glslang::EOpImageGuardEnd) return image(node, args);

  if (auto o = barrier(op)) {
    locate(node);
    emit(*o, {}, nullptr);
    return Value::rvalue(kNoValue);
  }
  if (auto o = emission(op)) {
    std::vector<ir::Operand> ops;
    for (TIntermTyped* a : args) ops.push_back(rvalue(a));
    locate(node);
    emit(*o, ops, nullptr);
    return Value::rvalue(kNoValue);
  }
  if (auto o = atomic(op)) {
    std::vector<ir::Operand> ops{lvalue(args[0])};
    const ir::TypeId t = ir::pointee(module_, type_of(ops[0]));
    for (std::size_t i = 1; i < args.size(); ++i) ops.push_back(coerce(rvalue(args[i]), t, args[i]));
    locate(node);
    return Value::rvalue(emit(*o, ops, node));
  }
  if (auto o = with_out_arguments(op)) {
    const auto [opcode, values] = *o;
    std::vector<ir::Operand> ops;
    for (std::size_t i = 0; i < values && i < args.size(); ++i) ops.push_back(rvalue(args[i]));
    std::vector<std::pair<ir::Operand, ir::VariableId>> outs;
    for (std::size_t i = values; i < args.size(); ++i) {
      const ir::Operand target = lvalue(args[i]);
      if (failed_) return Value{};
      const ir::VariableId temp = temporary(fmt::format("{}_out{}", ir::name(opcode), i - values),
                                            ir::pointee(module_, type_of(target)), operand_precision(target));
      ops.push_back(temp);
      outs.emplace_back(target, temp);
    }
    locate(node);
    const ir::Operand r = emit(opcode, ops, node);
    for (auto [target, temp] : outs) store(target, load(Value::pointer(temp)));
    return Value::rvalue(r);
  }
  if (op == glslang::EOpFloatBitsToInt || op == glslang::EOpFloatBitsToUint || op == glslang::EOpIntBitsToFloat ||
      op == glslang::EOpUintBitsToFloat) {
    const ir::Operand v = rvalue(args[0]);
    const ir::TypeId t = type(node->getType(), node->getLoc());
    locate(node);
    return Value::rvalue(construct(Opcode::Bitcast, t, {v}, node));
  }
  switch (op) {
    case glslang::EOpLessThan:
    case glslang::EOpGreaterThan:
    case glslang::EOpLessThanEqual:
    case glslang::EOpGreaterThanEqual:
    case glslang::EOpVectorEqual:
    case glslang::EOpVectorNotEqual:
      if (args.size() == 2) {
        // lessThan(a, b) and friends: the component-wise comparisons.
        const ir::Operand a = rvalue(args[0]);
        const ir::Operand b = rvalue(args[1]);
        locate(node);
        return Value::rvalue(arithmetic(op, a, b, node));
      }
      break;
    default: break;
  }
  if (args.size() == 1) {
    if (auto o = unary_builtin(op)) {
      const ir::Operand v = rvalue(args[0]);
      locate(node);
      return Value::rvalue(emit(*o, {v}, node));
    }
  }
  if (auto m = multi_builtin(op); m && m->arguments == args.size()) {
    std::vector<ir::Operand> ops;
    for (TIntermTyped* a : args) ops.push_back(rvalue(a));
    if (failed_) return Value{};
    locate(node);
    Opcode opcode = m->opcode;
    if (op == glslang::EOpMod && ir::component_kind(module_, type_of(ops[0])) != ir::ScalarKind::Float)
      opcode = Opcode::IMod;
    if (op == glslang::EOpDot && ir::is_scalar(module_, type_of(ops[0])))
      return Value::rvalue(emit(Opcode::Mul, {ops[0], ops[1]}, node));  // dot(float, float)
    if (op == glslang::EOpMix && ir::component_kind(module_, type_of(ops[2])) == ir::ScalarKind::Bool) {
      // mix(x, y, a) with a boolean selector picks y where a holds.
      match_shapes(ops[0], ops[2], node);
      return Value::rvalue(emit(Opcode::Select, {ops[2], ops[1], ops[0]}, node));
    }
    if (m->splat) {
      // The widest argument gives the shape (step and smoothstep put the
      // vector last, the others first).
      ir::TypeId shape = type_of(ops[0]);
      for (ir::Operand o : ops)
        if (!ir::is_scalar(module_, type_of(o))) shape = type_of(o);
      for (ir::Operand& o : ops)
        if (ir::is_scalar(module_, type_of(o)) && !ir::is_scalar(module_, shape)) o = splat(o, shape, node);
    }
    return Value::rvalue(emit(opcode, ops, node));
  }
  return std::nullopt;
}

}  // namespace sluice::glsl_in::detail
