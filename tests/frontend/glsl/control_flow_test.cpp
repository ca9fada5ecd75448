// Statements and structured control flow: the block shapes docs/glsl.md
// promises for if, for, while, do-while, switch, break/continue/return/
// discard, and the short-circuit operators.
#include <fmt/format.h>

#include "glsl_test_util.h"

using namespace sluice;
using namespace sluice::ir;

namespace {

std::string fragment(std::string_view body, std::string_view globals = "") {
  return fmt::format(R"(#version 450
layout(location = 0) in float a;
layout(location = 1) flat in int n;
layout(location = 0) out vec4 color;
{}
void main() {{
{}
}}
)",
                     globals, body);
}

const Function& main_of(const Module& m) { return m.function(m.entry_point()); }

}  // namespace

TEST_CASE("for: condition, body and continue blocks") {
  const Module m = testing::compile_valid(fragment("for (int i = 0; i < n; i++) color.x += a;"));
  const Function& f = main_of(m);
  const auto loops = testing::find_all(f, Opcode::Loop);
  REQUIRE(loops.size() == 1);
  const Block& loop = f.block(loops[0].block);
  REQUIRE(loop.loop_continue().valid());
  CHECK(f.block(loop.loop_condition()).terminator_opcode() == Opcode::LoopIf);
  CHECK(f.block(loop.loop_continue()).terminator_opcode() == Opcode::Continue);
  CHECK(f.block(loop.loop_body()).terminator_opcode() == Opcode::Continue);
  const auto increments = testing::find_all(f, Opcode::PostfixIncrement);
  REQUIRE(increments.size() == 1);
  CHECK(increments[0].kind == BlockKind::LoopContinue);
}

TEST_CASE("while has no continue block, do-while is a DoLoop") {
  const Module w = testing::compile_valid(fragment("float x = a; while (x > 0.0) x -= 1.0; color = vec4(x);"));
  const auto loops = testing::find_all(main_of(w), Opcode::Loop);
  REQUIRE(loops.size() == 1);
  CHECK_FALSE(main_of(w).block(loops[0].block).loop_continue().valid());

  const Module d = testing::compile_valid(fragment("float x = a; do { x -= 1.0; } while (x > 0.0); color = vec4(x);"));
  CHECK(testing::count(d, Opcode::DoLoop) == 1);
  CHECK(testing::count(d, Opcode::Loop) == 0);
}

TEST_CASE("a condition with && is evaluated in the condition chain, ending in LoopIf") {
  const Module m = testing::compile_valid(fragment("for (int i = 0; i < n && a > float(i); ++i) color.y += 1.0;"));
  const Function& f = main_of(m);
  const auto loop_ifs = testing::find_all(f, Opcode::LoopIf);
  REQUIRE(loop_ifs.size() == 1);
  // The LoopIf ends the merge block of the && If, and reads its input.
  CHECK(loop_ifs[0].kind == BlockKind::Merge);
  const Block& end = f.block(loop_ifs[0].block);
  REQUIRE(end.merge_input.valid());
  CHECK(loop_ifs[0].instruction->operands[0] == Operand(end.merge_input));
}

TEST_CASE("an endless loop without break ends in an unreachable merge block") {
  const Module m = testing::compile_valid(
      fragment("color = vec4(f());", "float f() { float x = a; for (;;) { x += 1.0; if (x > 3.0) return x; } }"));
  const Function& fn = testing::function_named(m, "f");
  const auto fl = testing::find_all(fn, Opcode::Loop);
  REQUIRE(fl.size() == 1);
  CHECK(fn.block(fn.block(fl[0].block).merge).terminator_opcode() == Opcode::Unreachable);
  const Module n = testing::compile_valid(fragment("while (true) { if (a > 1.0) discard; }"));
  const Function& f = main_of(n);
  const auto loops = testing::find_all(f, Opcode::Loop);
  REQUIRE(loops.size() == 1);
  CHECK(f.block(f.block(loops[0].block).merge).terminator_opcode() == Opcode::Unreachable);
  // With a break, the merge block is reached and the code after the loop kept.
  const Module b = testing::compile_valid(fragment("while (true) { if (a > 1.0) break; } color = vec4(1.0);"));
  const auto bl = testing::find_all(main_of(b), Opcode::Loop);
  REQUIRE(bl.size() == 1);
  CHECK(main_of(b).block(main_of(b).block(bl[0].block).merge).terminator_opcode() == Opcode::Return);
}

TEST_CASE("switch: a case block per label in source order, fall-through as Passthrough, default anywhere") {
  const Module m = testing::compile_valid(fragment(R"(
  switch (n) {
    case 1:
    case 2: color = vec4(2.0);
    default: color += vec4(1.0); break;
    case 7: color = vec4(7.0); break;
    case -3: return;
  }
  color.w = 1.0;)"));
  const Function& f = main_of(m);
  const auto switches = testing::find_all(f, Opcode::Switch);
  REQUIRE(switches.size() == 1);
  const Block& sw = f.block(switches[0].block);
  REQUIRE(sw.cases.size() == 5);
  CHECK(sw.cases[0].value == 1u);
  CHECK(sw.cases[1].value == 2u);
  CHECK_FALSE(sw.cases[2].value.has_value());
  CHECK(sw.cases[3].value == 7u);
  CHECK(sw.cases[4].value == static_cast<std::uint32_t>(-3));
  CHECK(f.block(sw.case_blocks[0]).terminator_opcode() == Opcode::Passthrough);
  CHECK(f.block(sw.case_blocks[1]).terminator_opcode() == Opcode::Passthrough);
  CHECK(f.block(sw.case_blocks[2]).terminator_opcode() == Opcode::Break);
  CHECK(f.block(sw.case_blocks[3]).terminator_opcode() == Opcode::Break);
  CHECK(f.block(sw.case_blocks[4]).terminator_opcode() == Opcode::Return);
  CHECK(f.block(sw.merge).terminator_opcode() == Opcode::Return);
}

TEST_CASE("statements after return, break, continue and discard are dropped") {
  const Module m = testing::compile_valid(fragment(R"(
  for (int i = 0; i < n; ++i) {
    if (i == 2) { continue; color.x = 5.0; }
    if (i == 3) { break; color.x = 6.0; }
  }
  if (a > 2.0) { discard; color.x = 7.0; }
  return;
  color.x = 8.0;)"));
  // Only the stores that can run remain: none of the dead ones.
  CHECK(testing::count(m, Opcode::Store) == 0);
}

TEST_CASE("inputs and outputs named only by dead statements stay declared") {
  // corpus glsl/automap/spv.always-discard2.frag: gl_FragColor is written
  // only after the discard; glslang's SPIR-V still has it as output 0. The
  // built-ins are not linker objects: only the dead statement names them.
  const Module m = testing::compile_valid(R"(#version 140
in vec2 tex_coord;
void main() {
  vec4 color = vec4(tex_coord, 0.0, 1.0);
  discard;
  gl_FragColor = color + gl_FragCoord;
}
)");
  std::vector<std::string> inputs, outputs;
  for (VariableId v : m.globals()) {
    const Variable& var = m.variable(v);
    const std::string what = var.decorations.built_in.empty() ? var.name.text : var.decorations.built_in;
    if (m.type(var.type).storage == StorageClass::Input) inputs.push_back(what);
    if (m.type(var.type).storage == StorageClass::Output && var.decorations.location == 0u) outputs.push_back(what);
  }
  CHECK(inputs == std::vector<std::string>{"tex_coord", "FragCoord"});
  CHECK(outputs.size() == 1);
  CHECK(testing::count(m, Opcode::Store) == 1);  // color's initializer; the dead one is dropped
}

TEST_CASE("an if whose branches all leave has an unreachable merge block") {
  const Module m = testing::compile_valid(
      fragment("color = vec4(f());", "float f() { if (a > 0.0) return 1.0; else return 2.0; }"));
  const Function& f = testing::function_named(m, "f");
  const auto ifs = testing::find_all(f, Opcode::If);
  REQUIRE(ifs.size() == 1);
  CHECK(f.block(f.block(ifs[0].block).merge).terminator_opcode() == Opcode::Unreachable);
}

TEST_CASE("&& and || evaluate their right operand only in an If branch") {
  const Module m = testing::compile_valid(fragment(
      "bool b = a > 0.0 && g(); bool c = a < 1.0 || g(); color = vec4(b ? 1.0 : 0.0, c ? 1.0 : 0.0, 0.0, 1.0);",
      "float counter; bool g() { counter += 1.0; return counter > 2.0; }"));
  const Function& f = main_of(m);
  const auto calls = testing::find_all(f, Opcode::Call);
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].kind == BlockKind::IfTrue);   // a > 0.0 && g(): only when the left holds
  CHECK(calls[1].kind == BlockKind::IfFalse);  // a < 1.0 || g(): only when it does not
  // Each operator and each ?: is an If with a merge input.
  std::size_t inputs = 0;
  visit(f, [&](const BlockVisit&, const Block& b) {
    inputs += b.merge_input.valid() ? 1 : 0;
    return VisitAction::VisitSubBlocks;
  });
  CHECK(inputs == 4);
  CHECK(testing::count(m, Opcode::LogicalAnd) == 0);
  CHECK(testing::count(m, Opcode::LogicalOr) == 0);
}

TEST_CASE("?: with side effects in the branches keeps them in the branches") {
  const Module m = testing::compile_valid(fragment(
      "float x = a; color.x = a > 0.5 ? x++ : x--; color.y = x;"));
  const Function& f = main_of(m);
  const auto inc = testing::find_all(f, Opcode::PostfixIncrement);
  const auto dec = testing::find_all(f, Opcode::PostfixDecrement);
  REQUIRE(inc.size() == 1);
  REQUIRE(dec.size() == 1);
  CHECK(inc[0].kind == BlockKind::IfTrue);
  CHECK(dec[0].kind == BlockKind::IfFalse);
}

TEST_CASE("nested constructs of any depth within the documented limit") {
  std::string body = "float x = a;\n";
  const int depth = 60;
  for (int i = 0; i < depth; ++i)
    body += fmt::format("for (int i{0} = 0; i{0} < n; ++i{0}) {{ if (x > {0}.0) {{ switch (i{0}) {{ case 0: ", i);
  body += "x += 1.0;";
  for (int i = 0; i < depth; ++i) body += " break; default: x -= 0.5; } } else { continue; } }";
  body += "\ncolor = vec4(x);";
  const Module m = testing::compile_valid(fragment(body));
  CHECK(testing::count(m, Opcode::Loop) == depth);
  CHECK(testing::count(m, Opcode::Switch) == depth);
}

TEST_CASE("a non-void function that can fall off its end returns a zero value there") {
  const Module m = testing::compile_valid(
      fragment("color = vec4(f(a));", "float f(float x) { if (x > 0.0) return x; }"));
  const Function& f = testing::function_named(m, "f");
  const auto returns = testing::find_all(f, Opcode::Return);
  REQUIRE(returns.size() == 2);
  CHECK(returns[1].instruction->operands[0] == Operand(predefined::kFloatZero));
}

TEST_CASE("demote is the Demote instruction, not a terminator") {
  const Module m = testing::compile_valid(fragment("if (a < 0.5) demote; color = vec4(dFdx(a));",
                                                   "#extension GL_EXT_demote_to_helper_invocation : require"));
  const auto demotes = testing::find_all(main_of(m), Opcode::Demote);
  REQUIRE(demotes.size() == 1);
  CHECK(testing::count(m, Opcode::Discard) == 0);
  // The If's true block goes on to its Merge after the Demote.
  CHECK(main_of(m).block(demotes[0].block).terminator_opcode() == Opcode::Merge);
}
