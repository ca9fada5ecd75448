// The inlining rule: a register used once, later in the same chain, is
// spelled at its use, unless that would move a read past a write or call, a
// call past anything that touches memory, or nest too deeply. Each case
// compiles, and the text shows where the value was taken.
#include <algorithm>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "glsl_test_util.h"
#include "output/glsl/function_emitter.h"
#include "shader_builder.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::must;
using testing::position_of;

TEST_CASE("a value read before a store to the same variable is not moved past the store") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId v = s.b.declare_local({"v", NameSource::Temporary}, kFloat, Precision::None, kFloatOne);
  const RegisterId before = s.load(v);
  s.store(v, s.f(2.0f));
  s.write_color(s.op(Opcode::Add, {before, s.load(v)}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  // The first load gets a name before `v = 2.0`; the second is read after it.
  const std::size_t bound = position_of(text, fmt::format("const float t{} = v;", before.index()));
  CHECK(bound < position_of(text, "v = 2.0;"));
  position_of(text, fmt::format("color = vec4(t{} + v);", before.index()));
}

TEST_CASE("a value read before a call is not moved past the call, and calls keep their order") {
  testing::ShaderBuilder s;
  // float bump() { g += 1.0; return g; }
  const VariableId g = s.b.add_global({"g", NameSource::Internal}, kFloat, StorageClass::Private, Precision::None, {},
                                      kFloatZero);
  const FunctionId bump = s.b.begin_function({"bump", NameSource::Internal}, kFloat);
  s.store(g, s.op(Opcode::Add, {s.load(g), kFloatOne}));
  s.end(Opcode::Return, s.load(g));
  const FunctionId twice = s.b.begin_function({"twice", NameSource::Internal}, kFloat);
  s.end(Opcode::Return, s.op(Opcode::Mul, {s.load(g), s.f(2.0f)}));
  s.begin_main();
  const RegisterId read = s.load(g);                       // g before any call
  const RegisterId first = s.op(Opcode::Call, {bump});     // bump() runs first
  const RegisterId second = s.op(Opcode::Call, {twice});   // then twice()
  s.write_color(s.op(Opcode::Add, {s.op(Opcode::Add, {second, first}), read}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  const std::size_t main_at = position_of(text, "void main()");
  const std::size_t read_at = text.find(fmt::format("t{} = g;", read.index()), main_at);
  const std::size_t bump_at = text.find("bump()", main_at);
  const std::size_t twice_at = text.find("twice()", main_at);
  INFO(text);
  CHECK(read_at < bump_at);
  CHECK(bump_at < twice_at);
}

TEST_CASE("a read is not moved past a call whose callee writes a global through an out argument") {
  testing::ShaderBuilder s;
  // void set(out float p) { p = 5.0; }  void wrap() { set(g); }
  // set writes only its Function-storage parameter; wrap hands it g.
  const VariableId g = s.b.add_global({"g", NameSource::Internal}, kFloat, StorageClass::Private, Precision::None, {},
                                      kFloatZero);
  const FunctionId set = s.b.begin_function({"set", NameSource::Internal}, kVoid);
  const VariableId p = s.b.add_parameter(set, {"p", NameSource::Internal}, kFloat, ParamDirection::Out);
  s.store(p, s.f(5.0f));
  s.end(Opcode::Return);
  const FunctionId wrap = s.b.begin_function({"wrap", NameSource::Internal}, kVoid);
  must(s.b.emit(Opcode::Call, {set, g}));
  s.end(Opcode::Return);
  s.begin_main();
  const RegisterId read = s.load(g);
  must(s.b.emit(Opcode::Call, {wrap}));
  s.write_color(read);
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  INFO(text);
  const std::size_t main_at = position_of(text, "void main()");
  const std::size_t read_at = text.find(fmt::format("t{} = g;", read.index()), main_at);
  CHECK(read_at < text.find("wrap();", main_at));
}

TEST_CASE("reads of inputs and uniforms move freely, reads of variables are bound before an If that may write") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId v = s.b.declare_local({"v", NameSource::Temporary}, kFloat, Precision::None, kFloatOne);
  const RegisterId input_read = s.op(Opcode::Mul, {s.load(s.x), s.f(3.0f)});  // pure: x cannot change
  const RegisterId var_read = s.load(v);
  IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(s.x), kFloatZero}), false));
  s.b.set_block(w.true_block);
  s.store(v, s.f(5.0f));
  s.end(Opcode::Merge);
  s.b.set_block(w.merge);
  s.write_color(s.op(Opcode::Add, {input_read, var_read}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  CHECK(position_of(text, fmt::format("t{} = v;", var_read.index())) < position_of(text, "if ("));
  position_of(text, fmt::format("color = vec4(x * 3.0 + t{});", var_read.index()));
}

TEST_CASE("a register used twice gets a temporary, one used once is inlined") {
  testing::ShaderBuilder s;
  s.begin_main();
  const RegisterId twice = s.op(Opcode::Mul, {s.load(s.x), s.load(s.x)});
  const RegisterId once = s.op(Opcode::Sub, {s.load(s.x), s.f(1.0f)});
  s.write_color(s.op(Opcode::Add, {s.op(Opcode::Add, {twice, twice}), once}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  position_of(text, fmt::format("const float t{} = x * x;", twice.index()));
  position_of(text, fmt::format("vec4(t{0} + t{0} + (x - 1.0))", twice.index()));
}

TEST_CASE("deep expressions are split into temporaries") {
  testing::ShaderBuilder s;
  s.begin_main();
  RegisterId acc = s.load(s.x);
  for (int k = 0; k < 200; ++k) acc = s.op(Opcode::Sin, {s.op(Opcode::Add, {acc, s.f(static_cast<float>(k))})});
  s.write_color(acc);
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  std::size_t deepest = 0, depth = 0;
  for (char c : text) {
    if (c == '(') deepest = std::max(deepest, ++depth);
    if (c == ')') --depth;
  }
  CHECK(deepest <= 2 * glsl_out::kMaxInlineDepth + 2);
}
