// Every opcode of ir/opcode.def through the SPIR-V output: a fragment and a
// compute shader that use them all are emitted for every target and
// validated. Opcodes with a uniform type rule (FloatSame, IntSame, ...) are
// taken from the opcode table itself, so an opcode appended later is
// exercised here automatically; the test then checks that the two modules
// together use every opcode of the table, and names any that is missing.
#include <bit>
#include <set>

#include <catch2/catch.hpp>

#include "ir/texture.h"
#include "spirv_test_util.h"
#include "validator/validator.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

Decorations binding(std::uint32_t b) {
  Decorations d;
  d.set = 0;
  d.binding = b;
  return d;
}

Decorations location(std::uint32_t l, bool flat = false) {
  Decorations d;
  d.location = l;
  if (flat) d.interpolation = Interpolation::Flat;
  return d;
}

TypeId image_type(Module& m, ImageDim dim, ScalarKind sampled, bool depth = false, bool storage = false,
                  bool multisampled = false, std::string format = {}) {
  ImageDescriptor d;
  d.dim = dim;
  d.sampled_type = sampled;
  d.depth = depth;
  d.storage = storage;
  d.multisampled = multisampled;
  d.format = std::move(format);
  return m.intern(Type::make_image(d));
}

// Registers of each shape the uniform rules need, loaded from inputs so
// nothing folds away.
struct Values {
  RegisterId f, v2, v3, v4, i, iv2, u, b, bv2;
};

void uniform_rule_opcodes(Builder& b, const Values& v, std::set<Opcode>& skip) {
  for (std::size_t k = 0; k < kOpcodeCount; ++k) {
    const auto op = static_cast<Opcode>(k);
    const OpcodeInfo& oi = info(op);
    if (skip.count(op)) continue;
    auto operands = [&](Operand x) { return std::vector<Operand>(oi.min_operands, x); };
    std::vector<Operand> ops;
    switch (oi.type_rule) {
      case TypeRule::FloatSame:
      case TypeRule::SignedSame:
      case TypeRule::NumericSame:
      case TypeRule::ArithSame:
      case TypeRule::FloatToScalar:
      case TypeRule::FloatToBoolShape:
      case TypeRule::CompareShape:
      case TypeRule::CompareWhole: ops = operands(v.v3); break;
      case TypeRule::IntSame:
      case TypeRule::IntToIntShape:
      case TypeRule::Shift: ops = operands(v.iv2); break;
      case TypeRule::BoolSame: ops = operands(v.b); break;
      case TypeRule::BoolVectorToBool: ops = operands(v.bv2); break;
      default: continue;
    }
    if (oi.family != OpcodeFamily::Unary && oi.family != OpcodeFamily::Binary && oi.family != OpcodeFamily::BuiltIn) continue;
    if (ops.empty()) continue;
    ok(b.emit(op, std::span<const Operand>(ops)));
    skip.insert(op);
  }
}

// A fragment shader using everything a fragment shader can.
Module fragment_module() {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  VariableId color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, location(0));
  VariableId in4 = b.add_global({"in4", NameSource::Interface}, kVec4, StorageClass::Input, Precision::None, location(0));
  VariableId ini = b.add_global({"ini", NameSource::Interface}, kIVec2, StorageClass::Input, Precision::None, location(1, true));
  VariableId inu = b.add_global({"inu", NameSource::Interface}, kUint, StorageClass::Input, Precision::None, location(2, true));
  const TypeId tex2d = image_type(m, ImageDim::Dim2D, ScalarKind::Float);
  const TypeId shadow2d = image_type(m, ImageDim::Dim2D, ScalarKind::Float, true);
  const TypeId ms2d = image_type(m, ImageDim::Dim2D, ScalarKind::Float, false, false, true);
  const TypeId storage2d = image_type(m, ImageDim::Dim2D, ScalarKind::Float, false, true, false, "rgba32f");
  const TypeId atomic2d = image_type(m, ImageDim::Dim2D, ScalarKind::Uint, false, true, false, "r32ui");
  const TypeId sampler = m.intern(Type::make_sampler());
  VariableId combined = b.add_global({"combined", NameSource::Interface}, m.intern(Type::make_sampled_image(tex2d)),
                                     StorageClass::UniformConstant, Precision::None, binding(0));
  VariableId texture = b.add_global({"texture", NameSource::Interface}, tex2d, StorageClass::UniformConstant, Precision::None, binding(1));
  VariableId smp = b.add_global({"smp", NameSource::Interface}, sampler, StorageClass::UniformConstant, Precision::None, binding(2));
  VariableId shadow = b.add_global({"shadow", NameSource::Interface}, m.intern(Type::make_sampled_image(shadow2d)),
                                   StorageClass::UniformConstant, Precision::None, binding(3));
  VariableId ms = b.add_global({"ms", NameSource::Interface}, m.intern(Type::make_sampled_image(ms2d)),
                               StorageClass::UniformConstant, Precision::None, binding(4));
  VariableId image = b.add_global({"image", NameSource::Interface}, storage2d, StorageClass::UniformConstant, Precision::None, binding(5));
  VariableId counts = b.add_global({"counts", NameSource::Interface}, atomic2d, StorageClass::UniformConstant, Precision::None, binding(6));

  // float helper(float a) { return a * 2.0; }
  FunctionId helper = b.begin_function({"helper", NameSource::Internal}, kFloat);
  VariableId a = b.add_parameter(helper, {"a", NameSource::Temporary}, kFloat, ParamDirection::In);
  ok(b.terminate(Opcode::Return, ok(b.emit(Opcode::Mul, {ok(b.load(a)), m.float_constant(2.0f)}))));

  b.begin_function({"main", NameSource::Internal}, kVoid);
  Values v;
  v.v4 = ok(b.load(in4));
  v.v3 = ok(b.emit(Opcode::ExtractVectorComponentMulti, {v.v4, Operand::literal(0), Operand::literal(1), Operand::literal(2)}));
  v.v2 = ok(b.emit(Opcode::ExtractVectorComponentMulti, {v.v4, Operand::literal(0), Operand::literal(1)}));
  v.f = ok(b.emit(Opcode::ExtractVectorComponent, {v.v4, Operand::literal(3)}));
  v.iv2 = ok(b.load(ini));
  v.i = ok(b.emit(Opcode::ExtractVectorComponentDynamic, {v.iv2, kIntOne}));
  v.u = ok(b.load(inu));
  v.bv2 = ok(b.emit(Opcode::LessThan, {v.iv2, ok(b.construct(Opcode::ConstructVectorFromScalar, kIVec2, {v.i}))}));
  v.b = ok(b.emit(Opcode::Any, {v.bv2}));

  std::set<Opcode> done = {Opcode::ControlBarrier, Opcode::MemoryBarrier, Opcode::MemoryBarrierBuffer,
                           Opcode::MemoryBarrierShared, Opcode::MemoryBarrierImage, Opcode::GroupMemoryBarrier};
  uniform_rule_opcodes(b, v, done);

  // Matrices and their products.
  RegisterId m4 = ok(b.construct(Opcode::ConstructMatrixFromScalar, kMat4, {v.f}));
  RegisterId m3 = ok(b.construct(Opcode::ConstructMatrixFromMatrix, kMat3, {m4}));
  RegisterId m2 = ok(b.construct(Opcode::ConstructMatrixFromMultiple, kMat2, {v.v2, v.f, v.f}));
  ok(b.emit(Opcode::Transpose, {m3}));
  ok(b.emit(Opcode::Determinant, {m3}));
  ok(b.emit(Opcode::Inverse, {m2}));
  ok(b.emit(Opcode::Add, {m3, m3}));
  ok(b.emit(Opcode::Negate, {m2}));
  ok(b.emit(Opcode::VectorTimesScalar, {v.v3, v.f}));
  ok(b.emit(Opcode::MatrixTimesScalar, {m3, v.f}));
  ok(b.emit(Opcode::VectorTimesMatrix, {v.v3, m3}));
  ok(b.emit(Opcode::MatrixTimesVector, {m3, v.v3}));
  ok(b.emit(Opcode::MatrixTimesMatrix, {m3, m3}));
  ok(b.emit(Opcode::OuterProduct, {v.v3, v.v2}));
  ok(b.emit(Opcode::Equal, {m3, m3}));
  ok(b.emit(Opcode::NotEqual, {m2, m2}));
  ok(b.emit(Opcode::Cross, {v.v3, v.v3}));
  ok(b.emit(Opcode::Ldexp, {v.v2, v.iv2}));
  ok(b.emit(Opcode::Refract, {v.v3, v.v3, v.f}));
  ok(b.emit(Opcode::Select, {v.b, m3, m3}));
  ok(b.emit(Opcode::Select, {v.bv2, v.v2, v.v2}));
  ok(b.emit(Opcode::Select, {v.b, v.v3, v.v3}));
  ok(b.emit(Opcode::BitfieldExtract, {v.iv2, v.i, v.i}));
  ok(b.emit(Opcode::BitfieldInsert, {v.iv2, v.iv2, v.i, v.i}));
  ok(b.emit(Opcode::IMod, {v.u, v.u}));
  ok(b.emit(Opcode::Min, {v.u, v.u}));
  ok(b.emit(Opcode::Clamp, {v.u, v.u, v.u}));
  ok(b.emit(Opcode::FindMSB, {v.u}));
  ok(b.emit(Opcode::BitShiftRight, {v.u, v.i}));
  ok(b.emit(Opcode::BitShiftLeft, {v.iv2, v.i}));
  for (Opcode pack : {Opcode::PackSnorm4x8, Opcode::PackUnorm4x8}) ok(b.emit(pack, {v.v4}));
  for (Opcode pack : {Opcode::PackSnorm2x16, Opcode::PackUnorm2x16, Opcode::PackHalf2x16}) ok(b.emit(pack, {v.v2}));
  for (Opcode unpack : {Opcode::UnpackSnorm4x8, Opcode::UnpackUnorm4x8, Opcode::UnpackSnorm2x16, Opcode::UnpackUnorm2x16,
                        Opcode::UnpackHalf2x16})
    ok(b.emit(unpack, {v.u}));

  // Conversions and constructors.
  ok(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {v.i}));
  ok(b.construct(Opcode::ConstructScalarFromScalar, kBool, {v.f}));
  ok(b.construct(Opcode::ConstructScalarFromScalar, kInt, {v.b}));
  ok(b.construct(Opcode::ConstructScalarFromScalar, kUint, {v.i}));
  ok(b.construct(Opcode::ConstructVectorFromVector, kVec2, {v.iv2}));
  ok(b.construct(Opcode::ConstructVectorFromVector, kUVec2, {v.bv2}));
  ok(b.construct(Opcode::Bitcast, kIVec2, {ok(b.construct(Opcode::ConstructVectorFromVector, kUVec2, {v.iv2}))}));
  const TypeId pair = m.intern(Type::make_struct("Pair", {testing::member("x", kFloat), testing::member("m", kMat2)}));
  RegisterId s = ok(b.construct(Opcode::ConstructStruct, pair, {v.f, m2}));
  const TypeId arr3 = m.array_type(kFloat, 3);
  RegisterId arr = ok(b.construct(Opcode::ConstructArray, arr3, {v.f, v.f, v.f}));
  ok(b.emit(Opcode::ExtractStructField, {s, Operand::literal(1)}));
  ok(b.emit(Opcode::ExtractArrayElement, {arr, v.i}));
  ok(b.emit(Opcode::ExtractMatrixColumn, {m3, v.i}));
  ok(b.emit(Opcode::Equal, {s, s}));
  ok(b.emit(Opcode::Alias, {v.v3}));

  // Memory: locals through every access, increments, out pointers.
  VariableId lm = b.declare_local({"lm", NameSource::Temporary}, kMat3);
  VariableId ls = b.declare_local({"ls", NameSource::Temporary}, pair);
  VariableId la = b.declare_local({"la", NameSource::Temporary}, arr3);
  VariableId lv = b.declare_local({"lv", NameSource::Temporary}, kVec4, Precision::None, m.composite_constant(kVec4, std::vector<ConstantId>(4, kFloatZero)));
  VariableId li = b.declare_local({"li", NameSource::Temporary}, kIVec2, Precision::None, m.composite_constant(kIVec2, std::vector<ConstantId>(2, kIntZero)));
  VariableId lu = b.declare_local({"lu", NameSource::Temporary}, kUint, Precision::None, kUintZero);
  ok(b.store(lm, m3));
  ok(b.store(ls, s));
  ok(b.store(la, arr));
  RegisterId column = ok(b.emit(Opcode::AccessMatrixColumn, {lm, v.i}));
  ok(b.store(ok(b.emit(Opcode::AccessVectorComponentDynamic, {column, v.i})), v.f));
  ok(b.store(ok(b.emit(Opcode::AccessArrayElement, {la, v.i})), v.f));
  ok(b.store(ok(b.emit(Opcode::AccessStructField, {ls, Operand::literal(0)})), v.f));
  RegisterId swizzle = ok(b.emit(Opcode::AccessVectorComponentMulti, {lv, Operand::literal(2), Operand::literal(0)}));
  ok(b.store(swizzle, ok(b.emit(Opcode::Add, {ok(b.load(swizzle)), v.v2}))));
  ok(b.store(ok(b.emit(Opcode::AccessVectorComponent, {lv, Operand::literal(1)})), v.f));
  ok(b.emit(Opcode::PostfixIncrement, {ok(b.emit(Opcode::AccessVectorComponent, {lv, Operand::literal(3)}))}));
  ok(b.emit(Opcode::PrefixDecrement, {li}));
  ok(b.emit(Opcode::PostfixDecrement, {lm}));
  ok(b.emit(Opcode::PrefixIncrement, {swizzle}));
  ok(b.emit(Opcode::Modf, {v.v3, ok(b.emit(Opcode::AccessVectorComponentMulti, {lv, Operand::literal(0), Operand::literal(1), Operand::literal(2)}))}));
  ok(b.emit(Opcode::Frexp, {v.v2, li}));
  ok(b.emit(Opcode::UaddCarry, {v.u, v.u, lu}));
  ok(b.emit(Opcode::UsubBorrow, {v.u, v.u, lu}));
  VariableId lo = b.declare_local({"lo", NameSource::Temporary}, kUint);
  ok(b.emit(Opcode::UmulExtended, {v.u, v.u, lu, lo}));
  VariableId lsi = b.declare_local({"lsi", NameSource::Temporary}, kInt);
  VariableId lsj = b.declare_local({"lsj", NameSource::Temporary}, kInt);
  ok(b.emit(Opcode::ImulExtended, {v.i, v.i, lsi, lsj}));
  const Operand call[] = {helper, v.f};
  RegisterId twice = ok(b.emit(Opcode::Call, call));

  // Textures.
  RegisterId sampled = ok(b.load(combined));
  RegisterId separate = ok(b.construct(Opcode::ConstructSampledImage, m.intern(Type::make_sampled_image(tex2d)),
                                       {ok(b.load(texture)), ok(b.load(smp))}));
  const ConstantId offset = m.composite_constant(kIVec2, std::vector<ConstantId>{kIntOne, kIntZero});
  auto tex = [&](std::uint16_t flags, std::vector<Operand> ops) {
    return ok(b.emit(Opcode::Texture, std::span<const Operand>(ops), std::nullopt, flags));
  };
  RegisterId t0 = tex(0, {sampled, v.v2});
  tex(kTextureBias, {separate, v.v2, v.f});
  tex(kTextureLod | kTextureOffset, {sampled, v.v2, v.f, offset});
  tex(kTextureGrad, {separate, v.v2, v.v2, v.v2});
  tex(kTextureProj, {sampled, v.v3});
  tex(kTextureProj | kTextureLod, {sampled, v.v3, v.f});
  tex(kTextureFetch, {ok(b.load(texture)), v.iv2, v.i});
  tex(kTextureFetch | kTextureOffset, {sampled, v.iv2, v.i, offset});
  tex(kTextureFetch, {ok(b.load(ms)), v.iv2, v.i});
  tex(kTextureGather, {sampled, v.v2, kIntOne});
  tex(kTextureGather | kTextureOffset, {sampled, v.v2, offset, kIntZero});
  RegisterId sh = ok(b.load(shadow));
  tex(kTextureCompare, {sh, v.v2, v.f});
  tex(kTextureCompare | kTextureLod, {sh, v.v2, v.f, v.f});
  tex(kTextureCompare | kTextureGather, {sh, v.v2, v.f});
  tex(kTextureProj | kTextureCompare, {sh, v.v3, v.f});
  ok(b.emit(Opcode::TextureSize, {sampled, kIntZero}));
  ok(b.emit(Opcode::TextureSize, {ok(b.load(image))}));
  ok(b.emit(Opcode::TextureQueryLod, {sampled, v.v2}));
  ok(b.emit(Opcode::TextureQueryLevels, {sampled}));
  ok(b.emit(Opcode::TextureSamples, {ok(b.load(ms))}));
  RegisterId texel = ok(b.emit(Opcode::ImageLoad, {ok(b.load(image)), v.iv2}));
  ok(b.emit(Opcode::ImageStore, {ok(b.load(image)), v.iv2, texel}));
  RegisterId counts_image = ok(b.load(counts));
  for (Opcode atomic : {Opcode::ImageAtomicAdd, Opcode::ImageAtomicMin, Opcode::ImageAtomicMax, Opcode::ImageAtomicAnd,
                        Opcode::ImageAtomicOr, Opcode::ImageAtomicXor, Opcode::ImageAtomicExchange})
    ok(b.emit(atomic, {counts_image, v.iv2, v.u}));
  ok(b.emit(Opcode::ImageAtomicCompSwap, {counts_image, v.iv2, v.u, v.u}));

  RegisterId rebuilt = ok(b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {v.v3, v.f}));
  RegisterId result = ok(b.emit(Opcode::Add, {ok(b.emit(Opcode::Add, {t0, ok(b.load(lv))})), rebuilt}));
  ok(b.store(color, ok(b.emit(Opcode::VectorTimesScalar, {result, twice}))));
  IfBlocks kill = ok(b.branch_if(v.b, false));
  b.set_block(kill.true_block);
  ok(b.emit(Opcode::Demote, {}));  // a helper invocation from here on, then discarded
  ok(b.terminate(Opcode::Discard));
  b.set_block(kill.merge);
  ok(b.terminate(Opcode::Return));
  return m;
}

// A compute shader: barriers, shared memory, buffer atomics, and every
// control-flow form.
Module compute_module() {
  Module m(ShaderStage::Compute);
  Builder b(m);
  const TypeId data = m.intern(Type::make_struct(
      "Counters",
      {testing::member("n", kInt), testing::member("u", kUint),
       testing::member("rest", m.intern(Type::make_unsized_array(kInt)))},
      true, BlockLayout::Std430));
  VariableId buffer = b.add_global({"counters", NameSource::Interface}, data, StorageClass::StorageBuffer, Precision::None, binding(0));
  VariableId shared = b.add_global({"shared", NameSource::Internal}, m.array_type(kInt, 64), StorageClass::Workgroup);
  Decorations lid;
  lid.built_in = "LocalInvocationIndex";
  VariableId index = b.add_global({"gl_LocalInvocationIndex", NameSource::Interface}, kUint, StorageClass::Input, Precision::None, lid);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  RegisterId i = ok(b.construct(Opcode::Bitcast, kInt, {ok(b.load(index))}));
  RegisterId slot = ok(b.emit(Opcode::AccessArrayElement, {shared, i}));
  ok(b.store(slot, i));
  for (Opcode barrier : {Opcode::ControlBarrier, Opcode::MemoryBarrier, Opcode::MemoryBarrierBuffer,
                         Opcode::MemoryBarrierShared, Opcode::MemoryBarrierImage, Opcode::GroupMemoryBarrier})
    ok(b.emit(barrier, {}));
  RegisterId n = ok(b.emit(Opcode::AccessStructField, {buffer, Operand::literal(0)}));
  RegisterId u = ok(b.emit(Opcode::AccessStructField, {buffer, Operand::literal(1)}));
  RegisterId length = ok(b.emit(Opcode::ArrayLength, {ok(b.emit(Opcode::AccessStructField, {buffer, Operand::literal(2)}))}));
  RegisterId value = ok(b.emit(Opcode::Add, {ok(b.load(slot)), length}));
  for (Opcode atomic : {Opcode::AtomicAdd, Opcode::AtomicMin, Opcode::AtomicMax, Opcode::AtomicAnd, Opcode::AtomicOr,
                        Opcode::AtomicXor, Opcode::AtomicExchange})
    ok(b.emit(atomic, {n, value}));
  ok(b.emit(Opcode::AtomicMax, {u, kUintOne}));
  ok(b.emit(Opcode::AtomicCompSwap, {n, value, kIntZero}));

  // for (k = 0; k < 4; ++k) switch (k) { case 0: continue; case 1: (fall) default: s += k; break; }
  VariableId k = b.declare_local({"k", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  VariableId sum = b.declare_local({"sum", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  LoopBlocks loop = ok(b.branch_loop(false, true));
  b.set_block(loop.condition);
  ok(b.terminate(Opcode::LoopIf, ok(b.emit(Opcode::LessThan, {ok(b.load(k)), m.int_constant(4)}))));
  b.set_block(loop.body);
  const SwitchCase cases[] = {{0u}, {1u}, {std::nullopt}};
  SwitchBlocks sw = ok(b.branch_switch(ok(b.load(k)), cases));
  b.set_block(sw.cases[0]);
  ok(b.terminate(Opcode::Continue));
  b.set_block(sw.cases[1]);
  ok(b.terminate(Opcode::Passthrough));
  b.set_block(sw.cases[2]);
  ok(b.store(sum, ok(b.emit(Opcode::Add, {ok(b.load(sum)), ok(b.load(k))}))));
  ok(b.terminate(Opcode::Break));
  b.set_block(sw.merge);
  ok(b.terminate(Opcode::Continue));
  b.set_block(loop.continue_block);
  ok(b.emit(Opcode::PrefixIncrement, {k}));
  ok(b.terminate(Opcode::Continue));
  b.set_block(loop.merge);
  // do { sum -= 1; } while (sum > 10);
  LoopBlocks again = ok(b.branch_loop(true, false));
  b.set_block(again.body);
  ok(b.emit(Opcode::PrefixDecrement, {sum}));
  ok(b.terminate(Opcode::Continue));
  b.set_block(again.condition);
  ok(b.terminate(Opcode::LoopIf, ok(b.emit(Opcode::GreaterThan, {ok(b.load(sum)), m.int_constant(10)}))));
  b.set_block(again.merge);
  BlockId next = ok(b.next_block());
  b.set_block(next);
  IfBlocks pick = ok(b.branch_if(ok(b.emit(Opcode::Equal, {ok(b.load(sum)), kIntZero})), true, kInt));
  b.set_block(pick.true_block);
  ok(b.terminate(Opcode::Merge, kIntOne));
  b.set_block(pick.false_block);
  ok(b.terminate(Opcode::Merge, ok(b.load(sum))));
  b.set_block(pick.merge);
  ok(b.store(slot, b.merge_input(pick.merge)));
  IfBlocks both = ok(b.branch_if(ok(b.emit(Opcode::Equal, {i, kIntZero})), true));
  b.set_block(both.true_block);
  ok(b.terminate(Opcode::Return));
  b.set_block(both.false_block);
  ok(b.terminate(Opcode::Return));
  b.set_block(both.merge);
  ok(b.terminate(Opcode::Unreachable));
  return m;
}

// A geometry shader: points in, points out, an output on stream 0 and the
// four vertex emission instructions.
Module geometry_module() {
  Module m(ShaderStage::Geometry);
  m.shader().input_primitive = Primitive::Points;
  m.shader().output_primitive = Primitive::Points;
  m.shader().output_vertices = 2;
  Builder b(m);
  Decorations out;
  out.location = 0;
  out.stream = 0;
  VariableId v = b.add_global({"v", NameSource::Interface}, kFloat, StorageClass::Output, Precision::None, out);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  ok(b.store(v, kFloatOne));
  ok(b.emit(Opcode::EmitVertex, {}));
  ok(b.emit(Opcode::EndPrimitive, {}));
  ok(b.emit(Opcode::EmitStreamVertex, {kIntZero}));
  ok(b.emit(Opcode::EndStreamPrimitive, {kIntZero}));
  ok(b.terminate(Opcode::Return));
  return m;
}

void collect_opcodes(const Module& m, std::set<Opcode>& used, std::set<std::uint16_t>& texture_flags) {
  for (std::uint32_t f = 0; f < m.function_count(); ++f)
    for (const Block& b : m.function(FunctionId(f)).blocks)
      for (const Instruction& inst : b.instructions) {
        used.insert(inst.opcode);
        if (inst.opcode == Opcode::Texture) texture_flags.insert(inst.aux);
      }
}

}  // namespace

TEST_CASE("every opcode: valid SPIR-V on every target, with and without promotion") {
  const Module fragment = fragment_module();
  const Module compute = compute_module();
  const Module geometry = geometry_module();
  for (const Module* m : {&fragment, &compute, &geometry}) {
    const auto problems = validator::validate(*m);
    INFO(validator::describe(*m, problems));
    REQUIRE(problems.empty());
    for (spirv::TargetEnv target : testing::all_targets())
      for (bool ssa : {true, false}) {
        spirv::Options options;
        options.target = target;
        options.promote_to_ssa = ssa;
        testing::emit_checked(*m, options);
      }
  }
  std::set<Opcode> used;
  std::set<std::uint16_t> flags;
  collect_opcodes(fragment, used, flags);
  collect_opcodes(compute, used, flags);
  collect_opcodes(geometry, used, flags);
  std::string missing;
  for (std::size_t k = 0; k < kOpcodeCount; ++k)
    if (!used.count(static_cast<Opcode>(k))) missing += std::string(name(static_cast<Opcode>(k))) + " ";
  INFO("opcodes no test module uses: " << missing);
  CHECK(missing.empty());
  CHECK(flags.size() >= 14);
}

TEST_CASE("spirv-opt runs on the output when asked") {
  const Module fragment = fragment_module();
  spirv::Options options;
  options.run_spirv_opt = true;
  const auto optimized = testing::emit_checked(fragment, options);
  options.run_spirv_opt = false;
  const auto plain = testing::emit_checked(fragment, options);
  CHECK(optimized.words != plain.words);
}
