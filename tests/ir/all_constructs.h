// Modules built through the builder that use every part of the text form:
// every type kind, constant kind and variable attribute, every terminator
// and construct, calls with in/out/inout parameters and the texture
// variants. The parser's round-trip test and golden (all_constructs.ir) use
// them; the module is meant to be valid IR as well.
#pragma once

#include <bit>
#include <cmath>
#include <limits>

#include "angle_example.h"
#include "ir/builder.h"
#include "ir/texture.h"

namespace sluice::testing {

inline ir::Decorations decorations(std::optional<std::uint32_t> location = {},
                                   std::optional<std::uint32_t> set = {},
                                   std::optional<std::uint32_t> binding = {}) {
  ir::Decorations d;
  d.location = location;
  d.set = set;
  d.binding = binding;
  return d;
}

inline ir::Module build_all_constructs() {
  using namespace ir;
  using namespace ir::predefined;
  Module m(ShaderStage::Fragment);
  m.shader().early_fragment_tests = true;
  m.shader().depth_replacing = true;
  Builder b(m);
  const Precision lp = Precision::Low, mp = Precision::Medium, hp = Precision::High;

  // --- Types: every kind ---
  const TypeId float4 = m.array_type(kFloat, 4);
  const TypeId vec4_runtime = m.intern(Type::make_unsized_array(kVec4));
  const TypeId image2d = m.intern(Type::make_image(ImageDescriptor{}));
  ImageDescriptor shadow_desc;
  shadow_desc.depth = true;
  shadow_desc.arrayed = true;
  const TypeId shadow_image = m.intern(Type::make_image(shadow_desc));
  ImageDescriptor ms_desc;
  ms_desc.sampled_type = ScalarKind::Int;
  ms_desc.multisampled = true;
  const TypeId ms_image = m.intern(Type::make_image(ms_desc));
  ImageDescriptor storage_desc;
  storage_desc.storage = true;
  storage_desc.format = "rgba8";
  const TypeId storage_image = m.intern(Type::make_image(storage_desc));
  ImageDescriptor buffer_desc;
  buffer_desc.sampled_type = ScalarKind::Uint;
  buffer_desc.dim = ImageDim::Buffer;
  m.intern(Type::make_image(buffer_desc));
  const TypeId sampler = m.intern(Type::make_sampler());
  const TypeId sampled2d = m.intern(Type::make_sampled_image(image2d));
  const TypeId sampled_shadow = m.intern(Type::make_sampled_image(shadow_image));
  const TypeId light = m.intern(Type::make_struct("Light", {{"color", kVec4, {}, {}, {}}, {"direction", kVec3, {}, {}, {}}}));
  const TypeId params = m.intern(Type::make_struct(
      "Params",
      {{"mvp", kMat4, 0, MatrixLayout::RowMajor, {}},
       {"normal_matrix", kMat3, 64, MatrixLayout::ColumnMajor, {}},
       {"light", light, 112, MatrixLayout::Default, {}},
       {"weights", float4, 144, MatrixLayout::Default, {}}},
      true, BlockLayout::Std140));
  const TypeId particles = m.intern(
      Type::make_struct("Particles", {{"count", kInt, 0, {}, {}}, {"positions", vec4_runtime, 16, {}, {}}}, true,
                        BlockLayout::Std430));
  m.intern(Type::make_struct("Builtins", {{"position", kVec4, {}, {}, "FragCoord"}}, true));
  // Push constants are a block (the validator's rule).
  const TypeId push = m.intern(Type::make_struct("Push", {{"light", light, 0, {}, {}}}, true, BlockLayout::Std430));

  // --- Constants: every kind ---
  const ConstantId half = m.float_constant(0.5f);
  m.float_constant(-0.0f);
  m.float_constant(1e20f);
  m.float_constant(std::numeric_limits<float>::denorm_min());
  m.float_constant(std::numeric_limits<float>::infinity());
  m.float_constant(-std::numeric_limits<float>::infinity());
  m.float_constant(std::numeric_limits<float>::quiet_NaN());
  m.intern(Constant{kFloat, 0xffc00001u, {}, {}});  // a negative NaN with a payload
  const ConstantId ten = m.int_constant(10);
  m.int_constant(std::numeric_limits<std::int32_t>::min());
  m.uint_constant(4000000000u);
  const ConstantId spec_int = m.intern(Constant{kInt, 7, {}, 3u});
  m.intern(Constant{kFloat, std::bit_cast<std::uint32_t>(2.5f), {}, 4u});
  m.intern(Constant{kBool, 1, {}, 5u});
  const ConstantId half2[] = {half, half};
  const ConstantId c_half2 = m.composite_constant(kVec2, half2);
  const ConstantId c_vec3[] = {kFloatZero, kFloatOne, kFloatZero};
  const ConstantId c_up = m.composite_constant(kVec3, c_vec3);
  const ConstantId c_vec4[] = {kFloatOne, half, kFloatZero, kFloatOne};
  const ConstantId c_color = m.composite_constant(kVec4, c_vec4);
  const ConstantId c_offset_parts[] = {kIntOne, kIntZero};
  const ConstantId c_offset = m.composite_constant(kIVec2, c_offset_parts);
  const ConstantId mat_columns[] = {c_half2, c_half2};
  m.composite_constant(kMat2, mat_columns);
  const ConstantId weights[] = {kFloatZero, kFloatOne, half, half};
  const ConstantId c_weights = m.composite_constant(float4, weights);
  const ConstantId light_parts[] = {c_color, c_up};
  m.composite_constant(light, light_parts);

  // --- Variables: every storage class a fragment shader has, every attribute ---
  Decorations color_d = decorations(0);
  color_d.index = 0;
  const VariableId color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, mp, color_d);
  Decorations uv_d = decorations(1);
  uv_d.component = 0;
  uv_d.centroid = true;
  const VariableId uv = b.add_global({"uv", NameSource::Interface}, kVec2, StorageClass::Input, hp, uv_d);
  Decorations flat_d = decorations(2);
  flat_d.interpolation = Interpolation::Flat;
  flat_d.sample = true;
  const VariableId layer = b.add_global({"layer", NameSource::Interface}, kInt, StorageClass::Input, hp, flat_d);
  Decorations np_d = decorations(3);
  np_d.interpolation = Interpolation::NoPerspective;
  b.add_global({"fog", NameSource::Interface}, kFloat, StorageClass::Input, lp, np_d);
  Decorations frag_coord_d;
  frag_coord_d.built_in = "FragCoord";
  b.add_global({"gl_FragCoord", NameSource::Internal}, kVec4, StorageClass::Input, hp, frag_coord_d);
  Decorations frag_depth_d;
  frag_depth_d.built_in = "FragDepth";
  frag_depth_d.invariant = true;
  b.add_global({"gl_FragDepth", NameSource::Internal}, kFloat, StorageClass::Output, hp, frag_depth_d);
  const VariableId ubo = b.add_global({"params", NameSource::Interface}, params, StorageClass::Uniform,
                                      Precision::None, decorations({}, 0, 1));
  Decorations ssbo_d = decorations({}, 0, 2);
  ssbo_d.coherent = true;
  ssbo_d.volatile_ = true;
  ssbo_d.restrict_ = true;
  const VariableId ssbo = b.add_global({"particles", NameSource::Interface}, particles, StorageClass::StorageBuffer,
                                       Precision::None, ssbo_d);
  b.add_global({"push", NameSource::Interface}, push, StorageClass::PushConstant);
  const VariableId tex = b.add_global({"tex", NameSource::Interface}, sampled2d, StorageClass::UniformConstant, mp,
                                      decorations({}, 1, 0));
  const VariableId shadow = b.add_global({"shadow", NameSource::Interface}, sampled_shadow,
                                         StorageClass::UniformConstant, mp, decorations({}, 1, 1));
  const VariableId image = b.add_global({"image", NameSource::Interface}, image2d, StorageClass::UniformConstant, mp,
                                        decorations({}, 1, 2));
  const VariableId samp = b.add_global({"samp", NameSource::Interface}, sampler, StorageClass::UniformConstant,
                                       Precision::None, decorations({}, 1, 3));
  const VariableId ms = b.add_global({"ms", NameSource::Interface}, ms_image, StorageClass::UniformConstant, hp,
                                     decorations({}, 1, 4));
  Decorations storage_d = decorations({}, 1, 5);
  storage_d.writeonly = true;
  const VariableId out_image = b.add_global({"out_image", NameSource::Interface}, storage_image,
                                            StorageClass::UniformConstant, hp, storage_d);
  Decorations readonly_d = decorations({}, 1, 6);
  readonly_d.readonly = true;
  const VariableId lookup =
      b.add_global({"lookup", NameSource::Interface}, storage_image, StorageClass::UniformConstant, hp, readonly_d);
  const VariableId table = b.add_global({"g_table", NameSource::Internal}, float4, StorageClass::Private, hp, {},
                                        c_weights);

  // --- f0: 'helper'(in, out, inout) -> float [highp] ---
  const FunctionId helper = b.begin_function({"helper", NameSource::Internal}, kFloat, hp);
  const VariableId p_in = b.add_parameter(helper, {"a", NameSource::Temporary}, kFloat, ParamDirection::In, hp);
  const VariableId p_out = b.add_parameter(helper, {"b", NameSource::Temporary}, kFloat, ParamDirection::Out, hp);
  const VariableId p_inout =
      b.add_parameter(helper, {"c", NameSource::Temporary}, kFloat, ParamDirection::InOut, hp);
  const VariableId scratch = b.declare_local({"scratch", NameSource::Temporary}, kFloat, hp, half);
  const RegisterId a = must(b.load(p_in));
  must(b.store(p_out, a));
  const RegisterId c = must(b.load(p_inout));
  const RegisterId sum = must(b.emit(Opcode::Add, {c, a}));
  must(b.store(p_inout, sum));
  must(b.store(scratch, sum));
  must(b.terminate(Opcode::Return, sum));

  // --- f1: 'main' ---
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const VariableId x = b.declare_local({"x", NameSource::Temporary}, kFloat, hp, half);
  const VariableId counter = b.declare_local({"i", NameSource::Temporary}, kInt, hp, kIntZero);
  const VariableId y = b.declare_local({"y", NameSource::Temporary}, kFloat, hp);

  // Access chains keep the storage class of their base.
  const RegisterId mvp_ptr = must(b.emit(Opcode::AccessStructField, {ubo, Operand::literal(0)}));
  const RegisterId mvp = must(b.load(mvp_ptr));
  const RegisterId col_ptr = must(b.emit(Opcode::AccessMatrixColumn, {mvp_ptr, kIntOne}));
  const RegisterId weights_ptr = must(b.emit(Opcode::AccessStructField, {ubo, Operand::literal(3)}));
  const RegisterId weight_ptr = must(b.emit(Opcode::AccessArrayElement, {weights_ptr, kIntOne}));
  const RegisterId weight = must(b.load(weight_ptr));
  const RegisterId positions = must(b.emit(Opcode::AccessStructField, {ssbo, Operand::literal(1)}));
  const RegisterId length = must(b.emit(Opcode::ArrayLength, {positions}));
  const RegisterId position_ptr = must(b.emit(Opcode::AccessArrayElement, {positions, length}));
  const RegisterId position = must(b.load(position_ptr));
  const RegisterId count_ptr = must(b.emit(Opcode::AccessStructField, {ssbo, Operand::literal(0)}));
  must(b.emit(Opcode::AtomicAdd, {count_ptr, kIntOne}));
  must(b.emit(Opcode::AtomicCompSwap, {count_ptr, kIntZero, kIntOne}));
  const RegisterId zw_ptr = must(b.emit(Opcode::AccessVectorComponentMulti,
                                        {col_ptr, Operand::literal(2), Operand::literal(3)}));
  must(b.emit(Opcode::AccessVectorComponent, {col_ptr, Operand::literal(1)}));
  const RegisterId layer_value = must(b.load(layer));
  must(b.emit(Opcode::AccessVectorComponentDynamic, {col_ptr, layer_value}));
  const RegisterId zw = must(b.load(zw_ptr));

  // Values: constructors, extraction, arithmetic, built-ins.
  const RegisterId uv_value = must(b.load(uv));
  const RegisterId transformed = must(b.emit(Opcode::MatrixTimesVector, {mvp, position}));
  const RegisterId scaled = must(b.emit(Opcode::VectorTimesScalar, {transformed, weight}));
  const RegisterId d = must(b.emit(Opcode::Dot, {scaled, position}));
  const RegisterId swizzle = must(b.emit(Opcode::ExtractVectorComponentMulti,
                                         {scaled, Operand::literal(2), Operand::literal(0)}));
  const RegisterId less = must(b.emit(Opcode::LessThan, {swizzle, uv_value}));
  const RegisterId any = must(b.emit(Opcode::Any, {less}));
  const RegisterId chosen = must(b.emit(Opcode::Select, {any, zw, uv_value}));
  const RegisterId clamped = must(b.emit(Opcode::Clamp, {chosen, c_half2, uv_value}, mp));
  const RegisterId negated = must(b.emit(Opcode::Negate, {d}));
  const RegisterId bits = must(b.construct(Opcode::Bitcast, kInt, {negated}));
  const RegisterId as_float = must(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {bits}));
  const RegisterId splat = must(b.construct(Opcode::ConstructVectorFromScalar, kVec4, {as_float}));
  const RegisterId offset_f = must(b.construct(Opcode::ConstructVectorFromVector, kVec2, {c_offset}));
  const RegisterId vec4_value = must(b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {clamped, offset_f}));
  const RegisterId diag = must(b.construct(Opcode::ConstructMatrixFromScalar, kMat2, {as_float}));
  must(b.construct(Opcode::ConstructMatrixFromMultiple, kMat2, {clamped, offset_f}));
  must(b.construct(Opcode::ConstructMatrixFromMatrix, kMat3, {diag}));
  const RegisterId direction = must(b.construct(Opcode::ConstructVectorFromMultiple, kVec3, {clamped, as_float}));
  const RegisterId light_value = must(b.construct(Opcode::ConstructStruct, light, {vec4_value, direction}));
  must(b.emit(Opcode::ExtractStructField, {light_value, Operand::literal(1)}));
  const RegisterId arr = must(b.construct(Opcode::ConstructArray, float4, {d, d, as_float, weight}));
  must(b.emit(Opcode::ExtractArrayElement, {arr, layer_value}));
  must(b.emit(Opcode::ExtractMatrixColumn, {mvp, kIntZero}));
  must(b.emit(Opcode::ExtractVectorComponentDynamic, {splat, layer_value}));
  must(b.emit(Opcode::ExtractVectorComponent, {splat, Operand::literal(3)}));
  must(b.emit(Opcode::Alias, {splat}));
  const RegisterId table_ptr = must(b.emit(Opcode::AccessArrayElement, {table, kIntZero}));
  must(b.load(table_ptr));
  must(b.emit(Opcode::PostfixIncrement, {counter}));

  // Calls: an in value, an out pointer and an inout pointer.
  must(b.store(x, d));
  const RegisterId call = must(b.emit(Opcode::Call, {helper, d, y, x}));

  // Textures, with their flags in the opcode name.
  const RegisterId sampled = must(b.load(tex));
  const RegisterId t_plain = must(b.emit(Opcode::Texture, {sampled, uv_value}));
  const RegisterId t_lod = must(b.emit(Opcode::Texture, {sampled, uv_value, call, c_offset}, {}, kTextureLod | kTextureOffset));
  must(b.emit(Opcode::Texture, {sampled, direction, half}, {}, kTextureProj | kTextureBias));
  must(b.emit(Opcode::Texture, {sampled, uv_value, uv_value, uv_value}, {}, kTextureGrad));
  must(b.emit(Opcode::Texture, {sampled, uv_value, kIntZero}, {}, kTextureGather));
  must(b.emit(Opcode::Texture, {sampled, c_offset, kIntZero}, {}, kTextureFetch));
  const RegisterId shadow_value = must(b.load(shadow));
  // A 2D array's coordinate: (s, t, layer).
  const RegisterId layered = must(b.emit(Opcode::ExtractVectorComponentMulti,
                                         {position, Operand::literal(0), Operand::literal(1), Operand::literal(2)}));
  must(b.emit(Opcode::Texture, {shadow_value, layered, half}, {}, kTextureGather | kTextureCompare));
  must(b.emit(Opcode::Texture, {shadow_value, layered, half, kFloatZero}, {}, kTextureCompare | kTextureLod));
  must(b.emit(Opcode::TextureSize, {sampled, kIntZero}));
  must(b.emit(Opcode::TextureQueryLod, {sampled, uv_value}));
  must(b.emit(Opcode::TextureQueryLevels, {sampled}));
  const RegisterId ms_value = must(b.load(ms));
  must(b.emit(Opcode::TextureSamples, {ms_value}));
  const RegisterId image_value = must(b.load(image));
  const RegisterId sampler_value = must(b.load(samp));
  must(b.construct(Opcode::ConstructSampledImage, sampled2d, {image_value, sampler_value}));
  // Read from the readonly image, written to the writeonly one (GLSL rejects the other way round).
  const RegisterId lookup_value = must(b.load(lookup));
  const RegisterId texel = must(b.emit(Opcode::ImageLoad, {lookup_value, c_offset}));
  const RegisterId storage_value = must(b.load(out_image));
  must(b.emit(Opcode::ImageStore, {storage_value, c_offset, texel}));

  // If with an else and a merge input.
  const RegisterId dim = must(b.emit(Opcode::LessThan, {d, half}));
  IfBlocks choose = must(b.branch_if(dim, true, kVec4, mp));
  b.set_block(choose.true_block);
  must(b.terminate(Opcode::Merge, t_plain));
  b.set_block(choose.false_block);
  must(b.terminate(Opcode::Merge, t_lod));
  b.set_block(choose.merge);
  must(b.store(color, b.merge_input(choose.merge)));

  // If without an else.
  const RegisterId nan = must(b.emit(Opcode::IsNan, {d}));
  IfBlocks kill = must(b.branch_if(nan, false));
  b.set_block(kill.true_block);
  must(b.terminate(Opcode::Discard));
  b.set_block(kill.merge);

  // Loop with a continue block; a switch in its body with the default case
  // in the middle, a fallthrough and a negative label.
  LoopBlocks loop = must(b.branch_loop(false, true));
  b.set_block(loop.condition);
  const RegisterId i = must(b.load(counter));
  must(b.terminate(Opcode::LoopIf, must(b.emit(Opcode::LessThan, {i, ten}))));
  b.set_block(loop.body);
  const VariableId step = b.declare_local({"step", NameSource::Temporary}, kInt, hp, spec_int);
  const RegisterId selector = must(b.load(step));
  const SwitchCase cases[] = {{1u}, {std::nullopt}, {static_cast<std::uint32_t>(-3)}};
  SwitchBlocks sw = must(b.branch_switch(selector, cases));
  b.set_block(sw.cases[0]);
  must(b.store(x, half));
  must(b.terminate(Opcode::Passthrough));
  b.set_block(sw.cases[1]);
  must(b.terminate(Opcode::Break));
  b.set_block(sw.cases[2]);
  must(b.terminate(Opcode::Continue));
  b.set_block(sw.merge);
  must(b.terminate(Opcode::Continue));
  b.set_block(loop.continue_block);
  must(b.emit(Opcode::PrefixIncrement, {counter}));
  must(b.terminate(Opcode::Continue));
  b.set_block(loop.merge);

  // DoLoop that leaves through Break with a value.
  LoopBlocks do_loop = must(b.branch_loop(true, false, kFloat, hp));
  b.set_block(do_loop.body);
  must(b.terminate(Opcode::Break, must(b.load(x))));
  b.set_block(do_loop.condition);
  must(b.terminate(Opcode::LoopIf, kTrue));
  b.set_block(do_loop.merge);
  must(b.store(x, b.merge_input(do_loop.merge)));

  // NextBlock, then an If whose branches both return: its merge block is
  // unreachable.
  b.set_block(must(b.next_block()));
  IfBlocks both = must(b.branch_if(any, true));
  b.set_block(both.true_block);
  must(b.terminate(Opcode::Return));
  b.set_block(both.false_block);
  must(b.terminate(Opcode::Return));
  b.set_block(both.merge);
  must(b.terminate(Opcode::Unreachable));
  return m;
}

// A compute shader: local size, shared memory, barriers, a uint switch.
inline ir::Module build_compute_module() {
  using namespace ir;
  using namespace ir::predefined;
  Module m(ShaderStage::Compute);
  m.shader().local_size = {8, 4, 1};
  Builder b(m);
  const VariableId shared = b.add_global({"cache", NameSource::Internal}, m.array_type(kUint, 64),
                                         StorageClass::Workgroup, Precision::High);
  Decorations id_d;
  id_d.built_in = "LocalInvocationIndex";
  const VariableId index = b.add_global({"gl_LocalInvocationIndex", NameSource::Internal}, kUint,
                                        StorageClass::Input, Precision::High, id_d);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId i = must(b.load(index));
  const RegisterId slot = must(b.emit(Opcode::AccessArrayElement, {shared, i}));
  must(b.store(slot, i));
  must(b.emit(Opcode::ControlBarrier, {}));
  must(b.emit(Opcode::MemoryBarrierShared, {}));
  const SwitchCase cases[] = {{4000000000u}, {std::nullopt}};
  SwitchBlocks sw = must(b.branch_switch(i, cases));
  b.set_block(sw.cases[0]);
  must(b.terminate(Opcode::Break));
  b.set_block(sw.cases[1]);
  must(b.terminate(Opcode::Break));
  b.set_block(sw.merge);
  must(b.terminate(Opcode::Return));
  return m;
}

}  // namespace sluice::testing
