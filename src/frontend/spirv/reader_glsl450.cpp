// The GLSL.std.450 extended instructions into IR built-ins: a table for the
// one-to-one ones (the inverse of output/spirv/arithmetic.cpp's), and the
// signed/unsigned variants (SMin, UClamp, FindSMsb, ...) with their operands
// converted to the signedness they name. ModfStruct/FrexpStruct write their
// second part through a temporary, as the IR's Modf/Frexp take a pointer.
#include <spirv/unified1/GLSL.std.450.h>

#include <fmt/format.h>

#include "frontend/spirv/reader_internal.h"
#include "ir/typing.h"

namespace sluice::spirv_in::detail {
namespace {

using O = ir::Opcode;
using K = ir::ScalarKind;

struct Entry {
  GLSLstd450 ext;
  O op;
  std::optional<K> kind;  // operands converted to this kind first
};

constexpr Entry kTable[] = {
    {GLSLstd450Round, O::Round, {}},           {GLSLstd450RoundEven, O::RoundEven, {}},
    {GLSLstd450Trunc, O::Trunc, {}},           {GLSLstd450FAbs, O::Abs, {}},
    {GLSLstd450SAbs, O::Abs, K::Int},          {GLSLstd450FSign, O::Sign, {}},
    {GLSLstd450SSign, O::Sign, K::Int},        {GLSLstd450Floor, O::Floor, {}},
    {GLSLstd450Ceil, O::Ceil, {}},             {GLSLstd450Fract, O::Fract, {}},
    {GLSLstd450Radians, O::Radians, {}},       {GLSLstd450Degrees, O::Degrees, {}},
    {GLSLstd450Sin, O::Sin, {}},               {GLSLstd450Cos, O::Cos, {}},
    {GLSLstd450Tan, O::Tan, {}},               {GLSLstd450Asin, O::Asin, {}},
    {GLSLstd450Acos, O::Acos, {}},             {GLSLstd450Atan, O::Atan, {}},
    {GLSLstd450Sinh, O::Sinh, {}},             {GLSLstd450Cosh, O::Cosh, {}},
    {GLSLstd450Tanh, O::Tanh, {}},             {GLSLstd450Asinh, O::Asinh, {}},
    {GLSLstd450Acosh, O::Acosh, {}},           {GLSLstd450Atanh, O::Atanh, {}},
    {GLSLstd450Atan2, O::Atan2, {}},           {GLSLstd450Pow, O::Pow, {}},
    {GLSLstd450Exp, O::Exp, {}},               {GLSLstd450Log, O::Log, {}},
    {GLSLstd450Exp2, O::Exp2, {}},             {GLSLstd450Log2, O::Log2, {}},
    {GLSLstd450Sqrt, O::Sqrt, {}},             {GLSLstd450InverseSqrt, O::InverseSqrt, {}},
    {GLSLstd450Determinant, O::Determinant, {}}, {GLSLstd450MatrixInverse, O::Inverse, {}},
    {GLSLstd450Modf, O::Modf, {}},             {GLSLstd450Frexp, O::Frexp, {}},
    {GLSLstd450FMin, O::Min, {}},              {GLSLstd450UMin, O::Min, K::Uint},
    {GLSLstd450SMin, O::Min, K::Int},          {GLSLstd450FMax, O::Max, {}},
    {GLSLstd450UMax, O::Max, K::Uint},         {GLSLstd450SMax, O::Max, K::Int},
    {GLSLstd450FClamp, O::Clamp, {}},          {GLSLstd450UClamp, O::Clamp, K::Uint},
    {GLSLstd450SClamp, O::Clamp, K::Int},      {GLSLstd450NMin, O::Min, {}},
    {GLSLstd450NMax, O::Max, {}},              {GLSLstd450NClamp, O::Clamp, {}},
    {GLSLstd450FMix, O::Mix, {}},              {GLSLstd450Step, O::Step, {}},
    {GLSLstd450SmoothStep, O::Smoothstep, {}}, {GLSLstd450Fma, O::Fma, {}},
    {GLSLstd450Ldexp, O::Ldexp, {}},           {GLSLstd450PackSnorm4x8, O::PackSnorm4x8, {}},
    {GLSLstd450PackUnorm4x8, O::PackUnorm4x8, {}}, {GLSLstd450PackSnorm2x16, O::PackSnorm2x16, {}},
    {GLSLstd450PackUnorm2x16, O::PackUnorm2x16, {}}, {GLSLstd450PackHalf2x16, O::PackHalf2x16, {}},
    {GLSLstd450UnpackSnorm2x16, O::UnpackSnorm2x16, {}}, {GLSLstd450UnpackUnorm2x16, O::UnpackUnorm2x16, {}},
    {GLSLstd450UnpackHalf2x16, O::UnpackHalf2x16, {}}, {GLSLstd450UnpackSnorm4x8, O::UnpackSnorm4x8, {}},
    {GLSLstd450UnpackUnorm4x8, O::UnpackUnorm4x8, {}}, {GLSLstd450Length, O::Length, {}},
    {GLSLstd450Distance, O::Distance, {}},     {GLSLstd450Cross, O::Cross, {}},
    {GLSLstd450Normalize, O::Normalize, {}},   {GLSLstd450FaceForward, O::FaceForward, {}},
    {GLSLstd450Reflect, O::Reflect, {}},       {GLSLstd450Refract, O::Refract, {}},
    {GLSLstd450FindILsb, O::FindLSB, {}},      {GLSLstd450FindSMsb, O::FindMSB, K::Int},
    {GLSLstd450FindUMsb, O::FindMSB, K::Uint},
};

}  // namespace

void Reader::glsl_std_450(const Instruction& inst) {
  const auto ext = static_cast<GLSLstd450>(in(inst, 1));
  const std::size_t n = in_count(inst) - 2;
  std::vector<ir::Operand> ops;
  for (std::size_t k = 0; k < n; ++k) ops.push_back(value(in(inst, 2 + k)));
  if (failed()) return;
  const ir::TypeId rt = type(inst.type_id);
  if (ext == GLSLstd450ModfStruct || ext == GLSLstd450FrexpStruct) {
    const ir::TypeId st = rt;
    if (!st.valid() || m_.type(st).kind != ir::TypeKind::Struct || m_.type(st).members.size() != 2)
      return fail(inst, "the result type is not a struct of two members");
    const ir::TypeId second = m_.type(st).members[1].type;
    const ir::VariableId tmp = local(second, fmt::format("part{}", inst.result_id));
    const ir::RegisterId first = emit(inst, ext == GLSLstd450ModfStruct ? O::Modf : O::Frexp, {ops[0], tmp});
    const ir::RegisterId whole = emit(inst, O::Load, {tmp});
    set(inst, emit_typed(inst, O::ConstructStruct, st, {first, whole}));
    return;
  }
  for (const Entry& e : kTable) {
    if (e.ext != ext) continue;
    if (e.kind)
      for (ir::Operand& o : ops) o = convert_kind(inst, o, *e.kind);
    if (e.op == O::Ldexp && ops.size() == 2) ops[1] = convert_kind(inst, ops[1], K::Int);
    const ir::RegisterId r = emit(inst, e.op, ops);
    set(inst, fit(inst, r, rt));
    return;
  }
  fail(inst, fmt::format("GLSL.std.450 instruction {} is not supported", static_cast<int>(ext)));
}

}  // namespace sluice::spirv_in::detail
