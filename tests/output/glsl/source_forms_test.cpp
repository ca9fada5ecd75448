// The forms that make the text read like the source a front end was given
// (and re-translate to the same IR): declarations at their first store,
// chained and compound assignments, for-init clauses, the ES default
// precisions, implicit block layouts, operand order of scalar products and
// kept dead expressions. Also the glslang pitfalls the output steers around.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "glsl_test_util.h"
#include "ir/builder.h"
#include "shader_builder.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::must;
using testing::position_of;

namespace {

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a variable is declared at its first store, and only there") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId v = s.b.declare_local({"v", NameSource::Temporary}, kFloat);
  s.store(v, s.load(s.x));  // instruction 1 of the entry block
  IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(v), kFloatOne}), false));
  s.b.set_block(w.true_block);
  s.store(v, s.load(s.x));  // instruction 1 of the true block: a plain assignment
  s.end(Opcode::Merge);
  s.b.set_block(w.merge);
  s.write_color(s.load(v));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  CHECK(count(text, "float v") == 1);
  CHECK(position_of(text, "float v = x;") < position_of(text, "        v = x;"));
}

TEST_CASE("a value stored by consecutive stores is one chained assignment") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId a = s.b.declare_local({"a", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const VariableId b = s.b.declare_local({"b", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const RegisterId sum = s.op(Opcode::Add, {s.load(s.x), kFloatOne});
  s.store(a, sum);
  s.store(b, sum);
  s.write_color(s.op(Opcode::Add, {s.load(a), s.load(b)}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  position_of(text, "b = a = x + 1.0;");
}

TEST_CASE("a variable stored just before a for loop and used only in it is the for-init") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt);
  s.store(i, s.op(Opcode::Sub, {s.load(s.n), s.i(3)}));
  LoopBlocks loop = must(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(i), s.load(s.n)}));
  s.b.set_block(loop.continue_block);
  s.op(Opcode::PostfixIncrement, {i});
  s.end(Opcode::Continue);
  s.b.set_block(loop.body);
  s.add_to(acc, s.x);
  s.end(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.write_color(s.load(acc));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  position_of(text, "for (int i = n - 3; i < n; i++) {");
}

TEST_CASE("GLSL ES declares the module's most common precisions as defaults") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId a = s.b.declare_local({"a", NameSource::Temporary}, kFloat, Precision::Medium, kFloatOne);
  const VariableId b = s.b.declare_local({"b", NameSource::Temporary}, kFloat, Precision::Medium, kFloatOne);
  const VariableId c = s.b.declare_local({"c", NameSource::Temporary}, kFloat, Precision::High, kFloatOne);
  s.write_color(s.op(Opcode::Add, {s.op(Opcode::Add, {s.load(a), s.load(b)}), s.load(c)}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m, testing::vulkan_es());
  position_of(text, "precision mediump float;");
  position_of(text, "    float a = 1.0;");
  position_of(text, "    highp float c = 1.0;");
}

TEST_CASE("uniform blocks state their layout only when every member states an offset") {
  for (bool offsets : {false, true}) {
    testing::ShaderBuilder s;
    std::optional<std::uint32_t> o0, o1;
    if (offsets) o0 = 0, o1 = 16;
    const TypeId block = s.m.intern(Type::make_struct(
        "Params", {testing::struct_member("scale", kFloat, o0), testing::struct_member("tint", kVec4, o1)}, true, BlockLayout::Std140));
    Decorations d;
    d.binding = 0;
    const VariableId p = s.b.add_global({"params", NameSource::Interface}, block, StorageClass::Uniform, Precision::None, d);
    s.begin_main();
    s.store(s.color, s.load(must(s.b.emit(Opcode::AccessStructField, {p, Operand::literal(1)}))));
    s.end(Opcode::Return);
    const std::string text = testing::emit_and_compile(s.m);
    position_of(text, offsets ? "layout(std140, binding = 0) uniform Params {" : "layout(binding = 0) uniform Params {");
  }
}

TEST_CASE("a scalar computed before the vector it scales is written first, dead expressions stay") {
  testing::ShaderBuilder s;
  s.begin_main();
  const RegisterId scale = s.op(Opcode::Mul, {s.load(s.x), s.f(2.0f)});
  const RegisterId v = s.splat(s.load(s.x));
  s.op(Opcode::Sin, {s.load(s.x)});  // nothing uses it
  s.store(s.color, s.op(Opcode::VectorTimesScalar, {v, scale}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  position_of(text, "color = x * 2.0 * vec4(x);");
  position_of(text, "    sin(x);");
}

TEST_CASE("an If choosing between structs is ?:, or a temporary in each branch for a struct read from a buffer") {
  // glslang's ?: stores an operand read from a laid-out block into a
  // temporary without layout, which spirv-val rejects (spv.structCopy.comp);
  // a constructed value of a struct a buffer also holds is fine.
  for (const bool from_buffer : {false, true}) {
    testing::ShaderBuilder s;
    const TypeId pair = s.m.intern(Type::make_struct("Pair", {testing::struct_member("a", kFloat), testing::struct_member("b", kFloat)}));
    const TypeId data = s.m.intern(Type::make_struct("Data", {testing::struct_member("p", pair, 0)}, true,
                                                     BlockLayout::Std430));
    Decorations d;
    d.binding = 0;
    const VariableId buffer =
        s.b.add_global({"data", NameSource::Interface}, data, StorageClass::StorageBuffer, Precision::None, d);
    s.begin_main();
    IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(s.x), kFloatZero}), true, pair));
    s.b.set_block(w.true_block);
    s.end(Opcode::Merge, from_buffer ? s.load(s.op(Opcode::AccessStructField, {buffer, Operand::literal(0)}))
                                     : must(s.b.construct(Opcode::ConstructStruct, pair, {s.load(s.x), kFloatOne})));
    s.b.set_block(w.false_block);
    s.end(Opcode::Merge, must(s.b.construct(Opcode::ConstructStruct, pair, {kFloatOne, s.load(s.x)})));
    s.b.set_block(w.merge);
    s.write_color(s.op(Opcode::ExtractStructField, {s.b.merge_input(w.merge), Operand::literal(1)}));
    s.end(Opcode::Return);
    const std::string text = testing::emit_and_compile(s.m);  // spirv-val accepts it
    INFO(text);
    CHECK((text.find(" ? ") == std::string::npos) == from_buffer);
    CHECK((text.find("} else {") != std::string::npos) == from_buffer);
  }
}

TEST_CASE("a combined sampler constructed beside a ?: argument gets the ?: named first (glslang's OpSampledImage)") {
  testing::ShaderBuilder s;
  const TypeId image = s.m.intern(Type::make_image(ImageDescriptor{}));
  const TypeId sampled = s.m.intern(Type::make_sampled_image(image));
  Decorations d0, d1;
  d0.binding = 0;
  d1.binding = 1;
  const VariableId tex = s.b.add_global({"tex", NameSource::Interface}, image, StorageClass::UniformConstant, Precision::None, d0);
  const VariableId smp = s.b.add_global({"smp", NameSource::Interface}, s.m.intern(Type::make_sampler()),
                                        StorageClass::UniformConstant, Precision::None, d1);
  s.begin_main();
  const RegisterId combined = must(s.b.construct(Opcode::ConstructSampledImage, sampled, {s.load(tex), s.load(smp)}));
  IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(s.x), kFloatZero}), true, kVec2));
  s.b.set_block(w.true_block);
  s.end(Opcode::Merge, must(s.b.construct(Opcode::ConstructVectorFromScalar, kVec2, {s.load(s.x)})));
  s.b.set_block(w.false_block);
  s.end(Opcode::Merge, must(s.b.construct(Opcode::ConstructVectorFromScalar, kVec2, {kFloatOne})));
  s.b.set_block(w.merge);
  s.store(s.color, must(s.b.emit(Opcode::Texture, {combined, s.b.merge_input(w.merge)})));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);  // spirv-val accepts it
  position_of(text, "texture(sampler2D(tex, smp), t");
}

TEST_CASE("opcodes named after GLSL built-ins: group votes and image atomics") {
  const auto any = ir::opcode_from_name("AnyInvocation");
  const auto image_add = ir::opcode_from_name("ImageAtomicAdd");
  if (!any || !image_add) return;  // older opcode tables
  Module m(ShaderStage::Compute);
  Builder b(m);
  ImageDescriptor desc;
  desc.storage = true;
  desc.format = "r32ui";
  desc.sampled_type = ScalarKind::Uint;
  Decorations d;
  d.binding = 0;
  const VariableId img = b.add_global({"counts", NameSource::Interface}, m.intern(Type::make_image(desc)),
                                      StorageClass::UniformConstant, Precision::None, d);
  const VariableId id = b.add_global({"id", NameSource::Internal}, kUVec3, StorageClass::Input, Precision::None, [] {
    Decorations x;
    x.built_in = "GlobalInvocationId";
    return x;
  }());
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const RegisterId gx = must(b.emit(Opcode::ExtractVectorComponent, {must(b.load(id)), Operand::literal(0)}));
  const RegisterId vote = must(b.emit(*any, {must(b.emit(Opcode::GreaterThan, {gx, m.uint_constant(4)}))}));
  IfBlocks w = must(b.branch_if(vote, false));
  b.set_block(w.true_block);
  const RegisterId coord = must(b.construct(Opcode::ConstructVectorFromScalar, kIVec2,
                                            {must(b.construct(Opcode::ConstructScalarFromScalar, kInt, {gx}))}));
  must(b.emit(*image_add, {must(b.load(img)), coord, kUintOne}));
  must(b.terminate(Opcode::Merge));
  b.set_block(w.merge);
  must(b.terminate(Opcode::Return));
  const std::string text = testing::emit_and_compile(m);
  position_of(text, "#extension GL_ARB_shader_group_vote : require");
  position_of(text, "anyInvocationARB(");
  position_of(text, "imageAtomicAdd(counts, ");
}
