// IR the GLSL output cannot express, or that is malformed, comes back as an
// error value naming the problem; nothing aborts.
#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "shader_builder.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::must;

namespace {

std::string error_of(const Module& m, const glsl_out::Options& options = {}) {
  auto text = glsl_out::emit(m, options);
  INFO((text.ok() ? *text : std::string()));
  REQUIRE(!text.ok());
  return text.error();
}

}  // namespace

TEST_CASE("recursion is refused") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  const FunctionId f = b.begin_function({"f", NameSource::Internal}, kFloat);
  must(b.terminate(Opcode::Return, must(b.emit(Opcode::Call, {f}))));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  must(b.emit(Opcode::Call, {f}));
  must(b.terminate(Opcode::Return));
  CHECK_THAT(error_of(m), Catch::Contains("recursion is not allowed"));  // the validator's problem
}

TEST_CASE("what a version or flavour lacks is refused") {
  testing::ShaderBuilder s;
  const TypeId sampler = s.m.intern(Type::make_sampler());
  Decorations d;
  d.binding = 0;
  s.b.add_global({"smp", NameSource::Interface}, sampler, StorageClass::UniformConstant, Precision::None, d);
  d.binding.reset();
  d.interpolation = Interpolation::NoPerspective;
  d.location = 3;
  s.b.add_global({"np", NameSource::Interface}, kFloat, StorageClass::Input, Precision::None, d);
  s.begin_main();
  s.end(Opcode::Return);
  CHECK_THAT(error_of(s.m, testing::opengl_450()), Catch::Contains("separate samplers"));
  CHECK_THAT(error_of(s.m, testing::vulkan_es()), Catch::Contains("noperspective"));
}

TEST_CASE("a non-opaque uniform outside a block is refused in Vulkan GLSL, kept in OpenGL") {
  testing::ShaderBuilder s;
  Decorations d;
  d.location = 2;
  const VariableId u = s.b.add_global({"scale", NameSource::Interface}, kFloat, StorageClass::Uniform, Precision::None, d);
  s.begin_main();
  s.write_color(s.load(u));
  s.end(Opcode::Return);
  CHECK_THAT(error_of(s.m), Catch::Contains("outside a block"));
  const std::string text = testing::emit_and_compile(s.m, testing::opengl_450());
  testing::position_of(text, "layout(location = 2) uniform float scale;");
}

// glsl_out::emit() validates first: malformed IR gets the validator's problem.
TEST_CASE("malformed IR is an error, not a crash") {
  SECTION("a block without terminator") {
    testing::ShaderBuilder s;
    s.begin_main();
    s.write_color(s.load(s.x));
    CHECK_THAT(error_of(s.m), Catch::Contains("terminator"));
  }
  SECTION("a register used outside its definition's scope") {
    testing::ShaderBuilder s;
    s.begin_main();
    IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(s.x), kFloatZero})));
    s.b.set_block(w.true_block);
    const RegisterId inner = s.op(Opcode::Mul, {s.load(s.x), s.f(2.0f)});
    s.end(Opcode::Merge);
    s.b.set_block(w.false_block);
    s.end(Opcode::Merge);
    s.b.set_block(w.merge);
    s.write_color(inner);
    s.end(Opcode::Return);
    CHECK_THAT(error_of(s.m), Catch::Contains("its definition does not dominate"));
  }
  SECTION("Passthrough outside a switch case and a shared block") {
    testing::ShaderBuilder s;
    s.begin_main();
    IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(s.x), kFloatZero})));
    s.b.set_block(w.true_block);
    s.end(Opcode::Passthrough);
    s.b.set_block(w.false_block);
    s.end(Opcode::Merge);
    s.b.set_block(w.merge);
    s.end(Opcode::Return);
    CHECK_THAT(error_of(s.m), Catch::Contains("Passthrough"));
    s.m.function(s.main).block(w.true_block).instructions.back().opcode = Opcode::Merge;  // the first problem, fixed
    s.m.function(s.main).block(s.m.function(s.main).entry).sub_blocks_storage[1] = w.true_block;
    CHECK_THAT(error_of(s.m), Catch::Contains("shared"));
  }
  SECTION("ids out of range") {
    testing::ShaderBuilder s;
    s.begin_main();
    s.write_color(s.load(s.x));
    s.end(Opcode::Return);
    s.m.function(s.main).blocks[0].instructions[0].operands[0] = Operand(VariableId(999));
    CHECK_THAT(error_of(s.m), Catch::Contains("does not exist"));
  }
}
