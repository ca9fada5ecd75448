// Types, layouts and the shader interface: uniform and storage blocks with
// std140/std430 offsets (checked against the GLSL 4.60 §7.6.2.2 rules and
// by spirv-val, which enforces them), bool members, copies of whole structs
// between block memory and registers, push constants, built-ins and
// gl_PerVertex, vertex and compute stages, automatic locations, bindings
// and Flat. Every module is validated on every target.
#include <bit>

#include <catch2/catch.hpp>

#include "spirv_interpreter.h"
#include "spirv_test_util.h"
#include "validator/validator.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

void require_valid_ir(const Module& m) {
  const auto problems = validator::validate(m);
  INFO(validator::describe(m, problems));
  REQUIRE(problems.empty());
}

using testing::emit_everywhere;

}  // namespace

using testing::member;

TEST_CASE("std140 uniform block: offsets, strides, matrices, bools, whole-struct copies") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const TypeId inner = m.intern(Type::make_struct("Inner", {member("a", kVec2), member("flag", kBool)}));
  const TypeId floats = m.array_type(kFloat, 3);
  // GLSL 4.60 std140: f@0; v3@16 (vec3 aligns to 16); g@28 (a float packs after a vec3);
  // m3@32 (columns of 16, 48 bytes); rm@80 (row-major mat2x3: 3 rows of vec2 at stride 16);
  // arr@128 (float[3] at stride 16); s@176 (struct aligned to 16: a@0, flag@8, size 16); b@192.
  const TypeId block = m.intern(Type::make_struct(
      "Params",
      {member("f", kFloat), member("v3", kVec3), member("g", kFloat), member("m3", kMat3),
       member("rm", kMat2x3, MatrixLayout::RowMajor), member("arr", floats), member("s", inner),
       member("b", kBool)},
      true, BlockLayout::Std140));
  Decorations set0;
  set0.set = 0;
  set0.binding = 2;
  VariableId params = b.add_global({"params", NameSource::Interface}, block, StorageClass::Uniform, Precision::None, set0);
  Decorations loc;
  loc.location = 0;
  VariableId out = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, loc);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  // A whole struct out of block memory into a local (layout conversion), and
  // a bool read through an access chain (uint in memory).
  VariableId copy = b.declare_local({"copy", NameSource::Temporary}, inner);
  ok(b.store(copy, ok(b.load(ok(b.emit(Opcode::AccessStructField, {params, Operand::literal(6)}))))));
  RegisterId flag = ok(b.load(ok(b.emit(Opcode::AccessStructField, {params, Operand::literal(7)}))));
  RegisterId local_flag = ok(b.emit(Opcode::ExtractStructField, {ok(b.load(copy)), Operand::literal(1)}));
  RegisterId both = ok(b.emit(Opcode::LogicalAnd, {flag, local_flag}));
  RegisterId f = ok(b.load(ok(b.emit(Opcode::AccessStructField, {params, Operand::literal(0)}))));
  RegisterId g = ok(b.emit(Opcode::Select, {both, f, kFloatZero}));
  RegisterId column = ok(b.load(ok(b.emit(Opcode::AccessMatrixColumn,
                                         {ok(b.emit(Opcode::AccessStructField, {params, Operand::literal(3)})), kIntOne}))));
  ok(b.store(out, ok(b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {column, g}))));
  ok(b.terminate(Opcode::Return));

  for (const auto& e : emit_everywhere(m)) {
    CHECK(testing::count_of(e.text, "OpDecorate %Params Block") == 1);
    CHECK(testing::count_of(e.text, "OpDecorate %params DescriptorSet 0") == 1);
    CHECK(testing::count_of(e.text, "OpDecorate %params Binding 2") == 1);
    for (const char* expected : {"0 Offset 0", "1 Offset 16", "2 Offset 28", "3 Offset 32", "4 Offset 80",
                                 "5 Offset 128", "6 Offset 176", "7 Offset 192", "3 ColMajor", "3 MatrixStride 16",
                                 "4 RowMajor", "4 MatrixStride 16"})
      CHECK(testing::count_of(e.text, std::string("OpMemberDecorate %Params ") + expected) == 1);
    CHECK(testing::count_of(e.text, "ArrayStride 16") == 1);
    CHECK(testing::count_of(e.text, "OpMemberDecorate %Inner_0 1 Offset 8") + testing::count_of(e.text, "OpMemberDecorate %Inner 1 Offset 8") == 1);
  }
}

TEST_CASE("std430 storage block: runtime array, length, atomics, stores through chains") {
  {
    Module m(ShaderStage::Compute);
    m.shader().local_size = {8, 4, 1};
    Builder b(m);
    const TypeId values = m.intern(Type::make_unsized_array(kVec3));
    const TypeId block = m.intern(Type::make_struct("Data", {member("count", kUint), member("scale", m.array_type(kFloat, 2)),
                                                             member("values", values)},
                                                    true, BlockLayout::Std430));
    Decorations binding;
    binding.binding = 0;
    binding.readonly = false;
    VariableId data = b.add_global({"data", NameSource::Interface}, block, StorageClass::StorageBuffer, Precision::None, binding);
    Decorations gid;
    gid.built_in = "GlobalInvocationId";
    VariableId id = b.add_global({"gl_GlobalInvocationID", NameSource::Interface}, kUVec3, StorageClass::Input,
                                 Precision::None, gid);
    b.begin_function({"main", NameSource::Internal}, kVoid);
    RegisterId index = ok(b.construct(Opcode::Bitcast, kInt,
                                      {ok(b.emit(Opcode::ExtractVectorComponent, {ok(b.load(id)), Operand::literal(0)}))}));
    RegisterId arr = ok(b.emit(Opcode::AccessStructField, {data, Operand::literal(2)}));
    RegisterId length = ok(b.emit(Opcode::ArrayLength, {arr}));
    IfBlocks inside = ok(b.branch_if(ok(b.emit(Opcode::LessThan, {index, length})), false));
    b.set_block(inside.true_block);
    RegisterId element = ok(b.emit(Opcode::AccessArrayElement, {arr, index}));
    RegisterId y = ok(b.emit(Opcode::AccessVectorComponent, {element, Operand::literal(1)}));
    RegisterId scale = ok(b.load(ok(b.emit(Opcode::AccessArrayElement, {ok(b.emit(Opcode::AccessStructField, {data, Operand::literal(1)})), kIntOne}))));
    ok(b.store(y, ok(b.emit(Opcode::Mul, {ok(b.load(y)), scale}))));
    ok(b.emit(Opcode::AtomicAdd, {ok(b.emit(Opcode::AccessStructField, {data, Operand::literal(0)})), kUintOne}));
    ok(b.terminate(Opcode::Merge));
    b.set_block(inside.merge);
    ok(b.emit(Opcode::ControlBarrier, {}));
    ok(b.terminate(Opcode::Return));
    for (const auto& e : emit_everywhere(m)) {
      CHECK(testing::count_of(e.text, "OpExecutionMode %main LocalSize 8 4 1") == 1);
      CHECK(testing::count_of(e.text, "OpArrayLength") == 1);
      CHECK(testing::count_of(e.text, "OpMemberDecorate %Data 1 Offset 4") == 1);  // std430: float[2] at stride 4
      CHECK(testing::count_of(e.text, "OpMemberDecorate %Data 2 Offset 16") == 1);
      CHECK(testing::count_of(e.text, "ArrayStride 16") == 1);  // vec3[] at stride 16
      CHECK(testing::count_of(e.text, "ArrayStride 4") == 1);
      const bool block_ok = testing::count_of(e.text, "OpDecorate %Data Block") + testing::count_of(e.text, "OpDecorate %Data BufferBlock") == 1;
      CHECK(block_ok);
    }
  }
}

TEST_CASE("push constants, private globals with initializers, Flat and automatic locations") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const TypeId block = m.intern(Type::make_struct("Push", {member("tint", kVec4), member("mode", kInt)}, true));
  VariableId push = b.add_global({"push", NameSource::Interface}, block, StorageClass::PushConstant);
  VariableId counter = b.add_global({"counter", NameSource::Internal}, kInt, StorageClass::Private, Precision::None, {},
                                    m.int_constant(5));
  // No locations given: Vulkan targets get 0 and 1, and the int input gets Flat.
  VariableId mode_in = b.add_global({"mode_in", NameSource::Interface}, kIVec2, StorageClass::Input);
  VariableId uv = b.add_global({"uv", NameSource::Interface}, kVec2, StorageClass::Input);
  VariableId out = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  RegisterId tint = ok(b.load(ok(b.emit(Opcode::AccessStructField, {push, Operand::literal(0)}))));
  RegisterId mode = ok(b.load(ok(b.emit(Opcode::AccessStructField, {push, Operand::literal(1)}))));
  RegisterId k = ok(b.emit(Opcode::Add, {mode, ok(b.emit(Opcode::ExtractVectorComponent, {ok(b.load(mode_in)), Operand::literal(0)}))}));
  ok(b.store(counter, k));
  RegisterId scale = ok(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {ok(b.load(counter))}));
  RegisterId u = ok(b.emit(Opcode::ExtractVectorComponent, {ok(b.load(uv)), Operand::literal(0)}));
  RegisterId s = ok(b.emit(Opcode::Mul, {scale, u}));
  ok(b.store(out, ok(b.emit(Opcode::VectorTimesScalar, {tint, s}))));
  ok(b.terminate(Opcode::Return));
  for (const auto& e : emit_everywhere(m)) {
    CHECK(testing::count_of(e.text, "OpDecorate %mode_in Flat") == 1);
    CHECK(testing::count_of(e.text, "OpDecorate %uv Flat") == 0);
    CHECK(testing::count_of(e.text, "OpVariable %_ptr_Private_int Private %int_5") == 1);
  }
  spirv::Options vulkan;
  const auto e = testing::emit_checked(m, vulkan);
  CHECK(testing::count_of(e.text, "OpDecorate %mode_in Location 0") == 1);
  CHECK(testing::count_of(e.text, "OpDecorate %uv Location 1") == 1);
  CHECK(testing::count_of(e.text, "OpDecorate %color Location 0") == 1);
}

TEST_CASE("vertex shader: gl_PerVertex block, built-ins, matrix inputs take several locations") {
  Module m(ShaderStage::Vertex);
  Builder b(m);
  StructMember position = member("gl_Position", kVec4);
  position.built_in = "Position";
  StructMember size = member("gl_PointSize", kFloat);
  size.built_in = "PointSize";
  const TypeId per_vertex = m.intern(Type::make_struct("gl_PerVertex", {position, size}, true));
  VariableId pv = b.add_global({"", NameSource::Internal}, per_vertex, StorageClass::Output);
  Decorations loc0;
  loc0.location = 0;
  VariableId transform = b.add_global({"transform", NameSource::Interface}, kMat4, StorageClass::Input, Precision::None, loc0);
  VariableId pos = b.add_global({"pos", NameSource::Interface}, kVec4, StorageClass::Input);  // gets location 4
  Decorations vid;
  vid.built_in = "VertexIndex";
  VariableId index = b.add_global({"gl_VertexIndex", NameSource::Interface}, kInt, StorageClass::Input, Precision::None, vid);
  VariableId vary = b.add_global({"vary", NameSource::Interface}, kFloat, StorageClass::Output);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  RegisterId p = ok(b.emit(Opcode::MatrixTimesVector, {ok(b.load(transform)), ok(b.load(pos))}));
  ok(b.store(ok(b.emit(Opcode::AccessStructField, {pv, Operand::literal(0)})), p));
  ok(b.store(ok(b.emit(Opcode::AccessStructField, {pv, Operand::literal(1)})), kFloatOne));
  ok(b.store(vary, ok(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {ok(b.load(index))}))));
  ok(b.terminate(Opcode::Return));
  for (const auto& e : emit_everywhere(m)) {
    CHECK(testing::count_of(e.text, "OpMemberDecorate %gl_PerVertex 0 BuiltIn Position") == 1);
    CHECK(testing::count_of(e.text, "OpDecorate %gl_PerVertex Block") == 1);
    CHECK(testing::count_of(e.text, "OpDecorate %gl_VertexIndex BuiltIn VertexIndex") == 1);
  }
  const auto e = testing::emit_checked(m);
  CHECK(testing::count_of(e.text, "OpDecorate %pos Location 4") == 1);
}

TEST_CASE("the interface lists Input/Output before SPIR-V 1.4 and every global from 1.4") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations loc;
  loc.location = 0;
  VariableId out = b.add_global({"o", NameSource::Interface}, kFloat, StorageClass::Output, Precision::None, loc);
  VariableId priv = b.add_global({"p", NameSource::Internal}, kFloat, StorageClass::Private);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  ok(b.store(priv, kFloatOne));
  ok(b.store(out, ok(b.load(priv))));
  ok(b.terminate(Opcode::Return));
  for (spirv::TargetEnv target : testing::all_targets()) {
    spirv::Options options;
    options.target = target;
    const auto e = testing::emit_checked(m, options);
    const auto entry = testing::lines_with(e.text, "OpEntryPoint");
    REQUIRE(entry.size() == 1);
    const bool lists_private = entry[0].find("%p") != std::string::npos;
    CHECK(lists_private == (spirv::spirv_version(target) >= 0x00010400));
    CHECK(entry[0].find("%o") != std::string::npos);
  }
}

TEST_CASE("out and inout parameters: whole variables are passed, anything else through a temporary") {
  // void f(inout int a, out float b) { a = a * 2; b = 0.5; }
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations loc;
  loc.location = 0;
  VariableId out = b.add_global({"o", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, loc);
  VariableId glob = b.add_global({"g", NameSource::Internal}, kInt, StorageClass::Private);
  FunctionId f = b.begin_function({"f", NameSource::Internal}, kVoid);
  VariableId a = b.add_parameter(f, {"a", NameSource::Temporary}, kInt, ParamDirection::InOut);
  VariableId pb = b.add_parameter(f, {"b", NameSource::Temporary}, kFloat, ParamDirection::Out);
  ok(b.store(a, ok(b.emit(Opcode::Mul, {ok(b.load(a)), m.int_constant(2)}))));
  ok(b.store(pb, m.float_constant(0.5f)));
  ok(b.terminate(Opcode::Return));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  VariableId local = b.declare_local({"local", NameSource::Temporary}, kInt, Precision::None, m.int_constant(3));
  VariableId v = b.declare_local({"v", NameSource::Temporary}, kVec4, Precision::None, m.composite_constant(kVec4, std::vector<ConstantId>(4, kFloatOne)));
  // f(local, v.y): a whole variable, then a vector component.
  const Operand call1[] = {f, local, ok(b.emit(Opcode::AccessVectorComponent, {v, Operand::literal(1)}))};
  ok(b.emit(Opcode::Call, call1));
  // f(g, v.zw.x): a Private global and a component of a swizzle.
  RegisterId zw = ok(b.emit(Opcode::AccessVectorComponentMulti, {v, Operand::literal(2), Operand::literal(3)}));
  const Operand call2[] = {f, glob, ok(b.emit(Opcode::AccessVectorComponent, {zw, Operand::literal(0)}))};
  ok(b.emit(Opcode::Call, call2));
  RegisterId sum = ok(b.emit(Opcode::Add, {ok(b.load(local)), ok(b.load(glob))}));
  RegisterId x = ok(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {sum}));
  RegisterId xyzw = ok(b.load(v));
  ok(b.store(out, ok(b.emit(Opcode::VectorTimesScalar, {xyzw, x}))));
  ok(b.terminate(Opcode::Return));
  for (const auto& e : emit_everywhere(m)) CHECK(testing::count_of(e.text, "OpFunctionCall") == 2);
  const auto e = testing::emit_checked(m);
  testing::check_golden("spirv/out_parameters.spvasm", e.text);
  const auto run = testing::run_spirv(e.words, {});
  INFO(run.error);
  REQUIRE(run.ok);
  // local: 3*2 = 6; g: 0*2 = 0; v = (1, 0.5, 0.5, 1) scaled by 6.
  CHECK(run.outputs.at("o") == testing::Words{std::bit_cast<std::uint32_t>(6.0f), std::bit_cast<std::uint32_t>(3.0f),
                                              std::bit_cast<std::uint32_t>(3.0f), std::bit_cast<std::uint32_t>(6.0f)});
}

// The IR keeps an OpenGL default-block uniform's location on its
// UniformConstant variable; Vulkan refuses Location there
// (VUID-StandaloneSpirv-Location-06672), so Vulkan targets drop it.
// glslang accepts `layout(location = 3) uniform sampler2D s;` for Vulkan
// (tests/fuzz/regressions/glsl/location-on-a-sampler.frag).
TEST_CASE("a location on a UniformConstant variable is written for SPIR-V targets, not for Vulkan") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const TypeId sampled = m.intern(Type::make_sampled_image(m.intern(Type::make_image(ImageDescriptor{}))));
  Decorations d;
  d.location = 3;
  d.set = 0;
  d.binding = 0;
  b.add_global({"tex", NameSource::Interface}, sampled, StorageClass::UniformConstant, Precision::High, d);
  Decorations at0;
  at0.location = 0;
  VariableId out = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, at0);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  ok(b.store(out, m.composite_constant(kVec4, std::vector<ConstantId>(4, m.float_constant(1.0f)))));
  ok(b.terminate(Opcode::Return));
  require_valid_ir(m);
  for (spirv::TargetEnv target : testing::all_targets()) {
    spirv::Options options;
    options.target = target;
    const auto e = testing::emit_checked(m, options);
    INFO(e.text);
    const bool vulkan = target <= spirv::TargetEnv::Vulkan1_3;
    CHECK(testing::count_of(e.text, "OpDecorate %tex Location 3") == (vulkan ? 0 : 1));
    CHECK(testing::count_of(e.text, "OpDecorate %tex Binding 0") == 1);
    CHECK(testing::count_of(e.text, "OpDecorate %color Location 0") == 1);
  }
}
