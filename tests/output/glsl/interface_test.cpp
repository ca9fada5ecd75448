// Declarations: inputs, outputs, built-ins, uniform and storage blocks, push
// constants, samplers, separate textures, storage images, shared memory,
// specialization constants, structs and constants of every kind. Every
// shader compiles with glslang; goldens show the vertex and compute ones.
#include <bit>
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "glsl_test_util.h"
#include "angle_example.h"
#include "golden_file.h"
#include "ir/builder.h"
#include "ir/texture.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::must;
using testing::position_of;

namespace {

Decorations at(std::optional<std::uint32_t> location, std::optional<std::uint32_t> set = {},
               std::optional<std::uint32_t> binding = {}) {
  Decorations d;
  d.location = location;
  d.set = set;
  d.binding = binding;
  return d;
}

Decorations builtin(const char* name) {
  Decorations d;
  d.built_in = name;
  return d;
}

Module vertex_shader(bool per_vertex_block) {
  Module m(ShaderStage::Vertex);
  Builder b(m);
  const VariableId position = b.add_global({"position", NameSource::Interface}, kVec3, StorageClass::Input, Precision::None, at(0));
  const VariableId uv = b.add_global({"uv", NameSource::Interface}, kVec2, StorageClass::Input, Precision::None, at(1));
  const VariableId v_uv = b.add_global({"v_uv", NameSource::Interface}, kVec2, StorageClass::Output, Precision::None, at(0));
  const VariableId v_id = b.add_global({"v_id", NameSource::Interface}, kInt, StorageClass::Output);  // location and flat chosen
  const VariableId vertex_index = b.add_global({"gl_VertexIndex", NameSource::Internal}, kInt, StorageClass::Input,
                                               Precision::None, builtin("VertexIndex"));
  const TypeId weights = m.array_type(kFloat, 4);
  // offset 80 for `tint` is not where std140 would put it (64).
  const TypeId transforms = m.intern(Type::make_struct(
      "Transforms", {testing::struct_member("mvp", kMat4, 0, MatrixLayout::RowMajor),
                     testing::struct_member("tint", kVec4, 80),
                     testing::struct_member("weights", weights, 96)},
      true, BlockLayout::Std140));
  const VariableId t = b.add_global({"transforms", NameSource::Interface}, transforms, StorageClass::Uniform,
                                    Precision::None, at({}, 0, 0));
  const TypeId push = m.intern(Type::make_struct("Push", {testing::struct_member("scale", kFloat, 0)}, true, BlockLayout::None));
  const VariableId pc = b.add_global({"pc", NameSource::Interface}, push, StorageClass::PushConstant);
  VariableId gl_position, per_vertex;
  if (per_vertex_block) {
    const TypeId pv = m.intern(Type::make_struct(
        "gl_PerVertex", {testing::struct_member("gl_Position", kVec4, {}, {}, "Position"),
                         testing::struct_member("gl_PointSize", kFloat, {}, {}, "PointSize")},
        true));
    per_vertex = b.add_global({"", NameSource::Internal}, pv, StorageClass::Output);
  } else {
    Decorations d = builtin("Position");
    d.invariant = true;
    gl_position = b.add_global({"gl_Position", NameSource::Internal}, kVec4, StorageClass::Output, Precision::None, d);
  }

  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId mvp = must(b.load(must(b.emit(Opcode::AccessStructField, {t, Operand::literal(0)}))));
  const RegisterId p = must(b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {must(b.load(position)), kFloatOne}));
  const RegisterId scale = must(b.load(must(b.emit(Opcode::AccessStructField, {pc, Operand::literal(0)}))));
  const RegisterId w = must(b.load(must(b.emit(Opcode::AccessArrayElement,
                                               {must(b.emit(Opcode::AccessStructField, {t, Operand::literal(2)})),
                                                must(b.load(vertex_index))}))));
  const RegisterId projected = must(b.emit(Opcode::MatrixTimesVector, {mvp, p}));
  const RegisterId scaled = must(b.emit(Opcode::VectorTimesScalar, {projected, must(b.emit(Opcode::Mul, {scale, w}))}));
  if (per_vertex_block) {
    must(b.store(must(b.emit(Opcode::AccessStructField, {per_vertex, Operand::literal(0)})), scaled));
    must(b.store(must(b.emit(Opcode::AccessStructField, {per_vertex, Operand::literal(1)})), kFloatOne));
  } else {
    must(b.store(gl_position, scaled));
  }
  const RegisterId tint = must(b.load(must(b.emit(Opcode::AccessStructField, {t, Operand::literal(1)}))));
  const RegisterId tint_xy = must(b.emit(Opcode::ExtractVectorComponentMulti, {tint, Operand::literal(0), Operand::literal(1)}));
  must(b.store(v_uv, must(b.emit(Opcode::Mul, {must(b.load(uv)), tint_xy}))));
  must(b.store(v_id, must(b.load(vertex_index))));
  must(b.terminate(Opcode::Return));
  return m;
}

}  // namespace

TEST_CASE("vertex shader: locations, built-ins, a std140 block with an offset and row_major, push constants") {
  const Module m = vertex_shader(false);
  const std::string text = testing::emit_and_compile(m);
  testing::check_golden("glsl/vertex.glsl", text);
  position_of(text, "layout(offset = 80) vec4 tint;");
  position_of(text, "layout(row_major) mat4 mvp;");
  position_of(text, "invariant gl_Position;");
  position_of(text, "layout(location = 1) out int v_id;");  // location chosen
  // GLSL ES wants integer vertex outputs flat; the IR leaves that implicit.
  position_of(testing::emit_and_compile(m, testing::vulkan_es()), "layout(location = 1) flat out int v_id;");
  position_of(text, "layout(push_constant) uniform Push {");
  position_of(text, "gl_VertexIndex");
}

TEST_CASE("vertex shader: a gl_PerVertex block's members are spelled as the built-ins") {
  const Module m = vertex_shader(true);
  const std::string text = testing::emit_and_compile(m);
  position_of(text, "gl_Position = ");
  position_of(text, "gl_PointSize = 1.0;");
  CHECK(text.find("gl_PerVertex") == std::string::npos);
}

TEST_CASE("vertex shader in the OpenGL flavour: no set, no push constants") {
  Module m = vertex_shader(false);
  auto text = glsl_out::emit(m, testing::opengl_450());
  REQUIRE(!text.ok());
  CHECK_THAT(text.error(), Catch::Contains("push constant"));
}

TEST_CASE("fragment shader: combined and separate samplers, shadow comparison, texture variants") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const VariableId color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, at(0));
  const VariableId uv = b.add_global({"uv", NameSource::Interface}, kVec2, StorageClass::Input, Precision::None, at(0));
  const TypeId image2d = m.intern(Type::make_image(ImageDescriptor{}));
  ImageDescriptor depth_desc;
  depth_desc.depth = true;
  const TypeId depth_image = m.intern(Type::make_image(depth_desc));
  const TypeId sampled = m.intern(Type::make_sampled_image(image2d));
  const TypeId shadow = m.intern(Type::make_sampled_image(depth_image));
  const TypeId sampler = m.intern(Type::make_sampler());
  const VariableId tex = b.add_global({"tex", NameSource::Interface}, sampled, StorageClass::UniformConstant, Precision::None, at({}, 0, 0));
  const VariableId separate = b.add_global({"separate", NameSource::Interface}, image2d, StorageClass::UniformConstant, Precision::None, at({}, 0, 1));
  const VariableId smp = b.add_global({"smp", NameSource::Interface}, sampler, StorageClass::UniformConstant, Precision::None, at({}, 0, 2));
  const VariableId depth = b.add_global({"depth", NameSource::Interface}, shadow, StorageClass::UniformConstant, Precision::None, at({}, 0, 3));

  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId coord = must(b.load(uv));
  const ConstantId one_one[] = {kIntOne, kIntOne};
  const ConstantId offset = m.composite_constant(kIVec2, one_one);
  auto sample = [&](Operand s, std::uint16_t flags, std::vector<Operand> extra, Operand c) {
    std::vector<Operand> ops{s, c};
    ops.insert(ops.end(), extra.begin(), extra.end());
    return must(b.emit(Opcode::Texture, std::span<const Operand>(ops), std::nullopt, flags));
  };
  const RegisterId t = must(b.load(tex));
  const RegisterId a = sample(t, 0, {}, coord);
  const RegisterId lod = sample(t, kTextureLod, {m.float_constant(2.0f)}, coord);
  const RegisterId bias_offset = sample(t, kTextureBias | kTextureOffset, {m.float_constant(0.5f), offset}, coord);
  const RegisterId grad = sample(t, kTextureGrad, {must(b.emit(Opcode::DFdx, {coord})), must(b.emit(Opcode::DFdy, {coord}))}, coord);
  const RegisterId gather = sample(t, kTextureGather, {kIntOne}, coord);
  const RegisterId size = must(b.emit(Opcode::TextureSize, {t, kIntZero}));
  const RegisterId texel_coord = must(b.construct(Opcode::ConstructVectorFromVector, kIVec2, {
      must(b.emit(Opcode::Mul, {coord, must(b.construct(Opcode::ConstructVectorFromVector, kVec2, {size}))}))}));
  const RegisterId fetch = sample(t, kTextureFetch, {kIntZero}, texel_coord);
  const RegisterId combined = must(b.construct(Opcode::ConstructSampledImage, sampled, {must(b.load(separate)), must(b.load(smp))}));
  const RegisterId sep = sample(combined, 0, {}, coord);
  const RegisterId cmp = sample(must(b.load(depth)), kTextureCompare, {m.float_constant(0.5f)}, coord);
  const RegisterId proj_coord = must(b.construct(Opcode::ConstructVectorFromMultiple, kVec3, {coord, kFloatOne}));
  const RegisterId proj = sample(t, kTextureProj, {}, proj_coord);
  RegisterId sum = a;
  for (RegisterId r : {lod, bias_offset, grad, gather, fetch, sep, proj}) sum = must(b.emit(Opcode::Add, {sum, r}));
  sum = must(b.emit(Opcode::VectorTimesScalar, {sum, cmp}));
  must(b.store(color, sum));
  must(b.terminate(Opcode::Return));

  const std::string text = testing::emit_and_compile(m);
  const std::string uv_name = fmt::format("t{}", coord.index());  // used many times: a temporary
  position_of(text, "texture(sampler2D(separate, smp), " + uv_name + ")");
  position_of(text, "texture(depth, vec3(" + uv_name + ", 0.5))");
  position_of(text, "textureOffset(tex, " + uv_name + ", ivec2(1), 0.5)");
  position_of(text, "textureGather(tex, " + uv_name + ", 1)");
  position_of(text, "texelFetch(tex, ");
  position_of(text, "textureProj(tex, vec3(" + uv_name + ", 1.0))");
  testing::emit_and_compile(m, testing::vulkan_es());
}

TEST_CASE("compute shader: shared memory, storage buffer, atomics, barrier, storage images, spec constants") {
  Module m(ShaderStage::Compute);
  m.shader().local_size = {8, 8, 1};
  Builder b(m);
  const ConstantId spec = m.intern(Constant{kUint, 4, {}, 3u});
  const TypeId floats = m.intern(Type::make_unsized_array(kFloat));
  const TypeId data = m.intern(Type::make_struct("Data", {testing::struct_member("count", kUint, 0), testing::struct_member("values", floats, 4)},
                                                 true, BlockLayout::Std430));
  const VariableId buf = b.add_global({"buf", NameSource::Interface}, data, StorageClass::StorageBuffer, Precision::None, at({}, 0, 0));
  ImageDescriptor out_desc;
  out_desc.storage = true;
  out_desc.format = "rgba8";
  ImageDescriptor in_desc;
  in_desc.storage = true;
  in_desc.format = "r32f";
  Decorations wo = at({}, 0, 1);
  wo.writeonly = true;
  Decorations ro = at({}, 0, 2);
  ro.readonly = true;
  const VariableId out_image = b.add_global({"result", NameSource::Interface}, m.intern(Type::make_image(out_desc)), StorageClass::UniformConstant, Precision::None, wo);
  const VariableId in_image = b.add_global({"source", NameSource::Interface}, m.intern(Type::make_image(in_desc)), StorageClass::UniformConstant, Precision::None, ro);
  const VariableId cache = b.add_global({"cache", NameSource::Internal}, m.array_type(kFloat, 64), StorageClass::Workgroup);
  const VariableId gid = b.add_global({"gid", NameSource::Internal}, kUVec3, StorageClass::Input, Precision::None, builtin("GlobalInvocationId"));
  const VariableId lid = b.add_global({"lid", NameSource::Internal}, kUint, StorageClass::Input, Precision::None, builtin("LocalInvocationIndex"));

  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId g = must(b.load(gid));
  const RegisterId xy = must(b.construct(Opcode::ConstructVectorFromVector, kIVec2,
                                         {must(b.emit(Opcode::ExtractVectorComponentMulti, {g, Operand::literal(0), Operand::literal(1)}))}));
  const RegisterId texel = must(b.emit(Opcode::ImageLoad, {must(b.load(in_image)), xy}));
  const RegisterId l = must(b.load(lid));
  must(b.store(must(b.emit(Opcode::AccessArrayElement, {cache, l})), must(b.emit(Opcode::ExtractVectorComponent, {texel, Operand::literal(0)}))));
  must(b.emit(Opcode::ControlBarrier, {}));
  const RegisterId neighbour = must(b.load(must(b.emit(Opcode::AccessArrayElement, {cache, must(b.emit(Opcode::BitwiseXor, {l, kUintOne}))}))));
  must(b.emit(Opcode::AtomicAdd, {must(b.emit(Opcode::AccessStructField, {buf, Operand::literal(0)})), spec}));
  const RegisterId values = must(b.emit(Opcode::AccessStructField, {buf, Operand::literal(1)}));
  const RegisterId length = must(b.emit(Opcode::ArrayLength, {values}));
  const RegisterId index = must(b.emit(Opcode::IMod, {must(b.construct(Opcode::ConstructScalarFromScalar, kInt, {l})), length}));
  must(b.store(must(b.emit(Opcode::AccessArrayElement, {values, index})), neighbour));
  must(b.emit(Opcode::ImageStore, {must(b.load(out_image)), xy, must(b.construct(Opcode::ConstructVectorFromScalar, kVec4, {neighbour}))}));
  must(b.terminate(Opcode::Return));

  const std::string text = testing::emit_and_compile(m);
  testing::check_golden("glsl/compute.glsl", text);
  position_of(text, "layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;");
  position_of(text, "layout(constant_id = 3) const uint spec3 = 4u;");
  position_of(text, "barrier();");
  position_of(text, "buf.values.length()");
  testing::emit_and_compile(m, testing::vulkan_es());
}

TEST_CASE("two storage buffers of one block type get block names of their own") {
  // SPIR-V lets two variables share a block type (SPIRV-Cross's
  // fuzz-loop-variable-dominator-with-unreachable-continue-block read by the
  // SPIR-V front end); GLSL block names are unique, so the second is renamed.
  Module m(ShaderStage::Compute);
  m.shader().local_size = {1, 1, 1};
  Builder b(m);
  const TypeId data = m.intern(Type::make_struct("Data", {testing::struct_member("value", kUint, 0)}, true,
                                                 BlockLayout::Std430));
  const VariableId src = b.add_global({"src", NameSource::Interface}, data, StorageClass::StorageBuffer,
                                      Precision::None, at({}, 0, 0));
  const VariableId dst = b.add_global({"dst", NameSource::Interface}, data, StorageClass::StorageBuffer,
                                      Precision::None, at({}, 0, 1));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId v = must(b.load(must(b.emit(Opcode::AccessStructField, {src, Operand::literal(0)}))));
  must(b.store(must(b.emit(Opcode::AccessStructField, {dst, Operand::literal(0)})), v));
  must(b.terminate(Opcode::Return));
  const std::string text = testing::emit_and_compile(m);
  CHECK(position_of(text, "buffer Data {\n") < position_of(text, "} src;"));
  CHECK(position_of(text, "buffer Data_1 {\n") < position_of(text, "} dst;"));
  CHECK(position_of(text, "dst.value = src.value;") > position_of(text, "} dst;"));
}

TEST_CASE("structs, arrays of arrays and constants of every kind") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const VariableId color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, at(0));
  const TypeId light = m.intern(Type::make_struct("Light", {testing::struct_member("color", kVec4), testing::struct_member("dir", kVec3)}));
  const TypeId lights = m.array_type(light, 2);
  const TypeId scene = m.intern(Type::make_struct("Scene", {testing::struct_member("lights", lights), testing::struct_member("exposure", kFloat)}));
  const TypeId grid = m.array_type(m.array_type(kFloat, 3), 2);  // float[2][3]
  const ConstantId specials[] = {m.float_constant(std::numeric_limits<float>::infinity()),
                                 m.float_constant(-std::numeric_limits<float>::infinity()), m.float_constant(-0.0f)};
  m.float_constant(std::numeric_limits<float>::denorm_min());
  const ConstantId nan = m.intern(Constant{kFloat, 0x7fc00001u, {}, {}});
  const ConstantId row0 = m.composite_constant(m.array_type(kFloat, 3), specials);
  const ConstantId row_parts[] = {nan, kFloatOne, m.float_constant(1e20f)};
  const ConstantId row1 = m.composite_constant(m.array_type(kFloat, 3), row_parts);
  const ConstantId rows[] = {row0, row1};
  const ConstantId grid_c = m.composite_constant(grid, rows);
  const ConstantId light_parts[] = {m.composite_constant(kVec4, std::vector<ConstantId>(4, kFloatOne)),
                                    m.composite_constant(kVec3, std::vector<ConstantId>{kFloatZero, kFloatOne, kFloatZero})};
  const ConstantId light_c = m.composite_constant(light, light_parts);
  const ConstantId lights_parts[] = {light_c, light_c};
  const ConstantId scene_parts[] = {m.composite_constant(lights, lights_parts), m.float_constant(0.5f)};
  const ConstantId scene_c = m.composite_constant(scene, scene_parts);
  const ConstantId diag[] = {m.composite_constant(kVec2, std::vector<ConstantId>{m.float_constant(3.0f), kFloatZero}),
                             m.composite_constant(kVec2, std::vector<ConstantId>{kFloatZero, m.float_constant(3.0f)})};
  const ConstantId mat = m.composite_constant(kMat2, diag);

  b.begin_function({"main", NameSource::Internal}, kVoid);
  const VariableId s = b.declare_local({"s", NameSource::Temporary}, scene, Precision::None, scene_c);
  const VariableId g = b.declare_local({"g", NameSource::Temporary}, grid, Precision::None, grid_c);
  const RegisterId l1 = must(b.load(must(b.emit(Opcode::AccessArrayElement,
                                                {must(b.emit(Opcode::AccessStructField, {s, Operand::literal(0)})), kIntOne}))));
  const RegisterId c = must(b.emit(Opcode::ExtractStructField, {l1, Operand::literal(0)}));
  const RegisterId cell = must(b.load(must(b.emit(Opcode::AccessArrayElement,
                                                  {must(b.emit(Opcode::AccessArrayElement, {g, kIntOne})), m.int_constant(2)}))));
  const RegisterId ints = must(b.emit(Opcode::Add, {m.int_constant(std::numeric_limits<std::int32_t>::min()), m.int_constant(-7)}));
  const RegisterId uints = must(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {m.uint_constant(4000000000u)}));
  const RegisterId as_float = must(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {ints}));
  const RegisterId scaled = must(b.emit(Opcode::MatrixTimesVector, {mat, must(b.emit(Opcode::ExtractVectorComponentMulti, {c, Operand::literal(0), Operand::literal(1)}))}));
  const RegisterId sum = must(b.emit(Opcode::Add, {must(b.emit(Opcode::Add, {cell, as_float})), uints}));
  must(b.store(color, must(b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {scaled, sum, sum}))));
  must(b.terminate(Opcode::Return));

  const std::string text = testing::emit_and_compile(m);
  testing::check_golden("glsl/constants.glsl", text);
  position_of(text, "struct Light {");
  // Infinities as glslang folds them (constants again); other NaNs by their bits.
  position_of(text, "float g[2][3] = float[2][3](float[3]((1.0 / 0.0), (-1.0 / 0.0), -0.0)");
  position_of(text, "uintBitsToFloat(0x7fc00001u)");
  position_of(text, "(-2147483647 - 1)");
  position_of(text, "mat2(3.0)");
  testing::emit_and_compile(m, testing::vulkan_es());
  testing::emit_and_compile(m, testing::opengl_450());
}

TEST_CASE("names that GLSL reserves or that clash are renamed, interface names are kept") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const VariableId color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, at(0));
  const VariableId texture = b.add_global({"texture", NameSource::Internal}, kFloat, StorageClass::Private, Precision::None, {}, kFloatOne);
  const FunctionId sin_fn = b.begin_function({"sin", NameSource::Internal}, kFloat);
  const VariableId p = b.add_parameter(sin_fn, {"float", NameSource::Temporary}, kFloat, ParamDirection::In);
  must(b.terminate(Opcode::Return, must(b.emit(Opcode::Sin, {must(b.load(p))}))));
  const FunctionId f2 = b.begin_function({"sin", NameSource::Internal}, kFloat);
  must(b.terminate(Opcode::Return, kFloatZero));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  std::vector<VariableId> locals;
  for (const char* name : {"gl_thing", "a__b", "1st", "", "t5", "t5", "color", "main", "if"})
    locals.push_back(b.declare_local({name, NameSource::Temporary}, kFloat, Precision::None, kFloatOne));
  RegisterId sum = must(b.emit(Opcode::Call, {sin_fn, must(b.load(texture))}));
  sum = must(b.emit(Opcode::Add, {sum, must(b.emit(Opcode::Call, {f2}))}));
  for (VariableId v : locals) sum = must(b.emit(Opcode::Add, {sum, must(b.load(v))}));
  must(b.store(color, must(b.construct(Opcode::ConstructVectorFromScalar, kVec4, {sum}))));
  must(b.terminate(Opcode::Return));
  const std::string text = testing::emit_and_compile(m);
  position_of(text, "out vec4 color;");
  position_of(text, "float texture_ = 1.0;");
  position_of(text, "float sin_(float float_) {");
  CHECK(text.find(" gl_thing") == std::string::npos);
  CHECK(text.find("a__b") == std::string::npos);
}

TEST_CASE("outputs whose locations overlap are refused, not moved: another index is apart") {
  // glslang's automatic mapping can give an output a location another one
  // declares (spv.430.vert): GLSL cannot declare that, and choosing another
  // location would change the interface.
  auto fragment_shader = [](std::uint32_t second_index) {
    Module m(ShaderStage::Fragment);
    Builder b(m);
    const VariableId colour = b.add_global({"colour", NameSource::Interface}, kVec4, StorageClass::Output,
                                           Precision::None, at(1));
    Decorations d = at(0);
    d.index = second_index;
    const VariableId pair = b.add_global({"pair", NameSource::Interface}, m.array_type(kVec4, 2),
                                         StorageClass::Output, Precision::None, d);
    b.begin_function({"main", NameSource::Internal}, kVoid);
    const RegisterId one = must(b.construct(Opcode::ConstructVectorFromScalar, kVec4, {kFloatOne}));
    must(b.store(colour, one));
    must(b.store(must(b.emit(Opcode::AccessArrayElement, {pair, kIntOne})), one));
    must(b.terminate(Opcode::Return));
    return m;
  };
  const Module overlapping = fragment_shader(0);
  for (const auto& options : {testing::vulkan_450(), testing::opengl_450()}) {
    INFO(testing::options_name(options));
    const auto text = glsl_out::emit(overlapping, options);
    REQUIRE_FALSE(text.ok());
    // The validator's rule (ir::find_location_overlap), which the output runs first.
    CHECK(text.error() == "invalid IR: v0 'colour' and v1 'pair' both occupy location 1 (a component of it)");
  }
  // Dual-source blending: index 1 has locations of its own.
  const std::string text = testing::emit_and_compile(fragment_shader(1));
  position_of(text, "layout(location = 1) out vec4 colour;");
  position_of(text, "layout(location = 0, index = 1) out vec4 pair[2];");
}

TEST_CASE("inputs packed into one location through component are not an overlap") {
  // layout(location = 0, component = 2) in vec2 high; layout(location = 0) in vec2 low;
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations packed = at(0);
  packed.component = 2;
  const VariableId high =
      b.add_global({"high", NameSource::Interface}, kVec2, StorageClass::Input, Precision::None, packed);
  const VariableId low = b.add_global({"low", NameSource::Interface}, kVec2, StorageClass::Input, Precision::None, at(0));
  const VariableId colour =
      b.add_global({"colour", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, at(0));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId sum = must(b.emit(Opcode::Add, {must(b.load(high)), must(b.load(low))}));
  must(b.store(colour, must(b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {sum, sum}))));
  must(b.terminate(Opcode::Return));
  const std::string text = testing::emit_and_compile(m);
  position_of(text, "layout(location = 0, component = 2) in vec2 high;");
  position_of(text, "layout(location = 0) in vec2 low;");
}
