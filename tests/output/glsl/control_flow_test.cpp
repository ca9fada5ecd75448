// Loops, do-loops, switches and Ifs with merge inputs: each shader must
// compile with glslang and pass spirv-val, and the text must have the form
// the emitter promises (docs/ir.md, "GLSL output"). Goldens show a few whole.
#include <algorithm>

#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "golden_file.h"
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

TEST_CASE("a loop without continue block is a while loop") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  LoopBlocks loop = must(s.b.branch_loop());
  s.b.set_block(loop.condition);
  s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(i), s.load(s.n)}));
  s.b.set_block(loop.body);
  s.add_to(acc, s.x);
  s.op(Opcode::PostfixIncrement, {i});
  s.end(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.write_color(s.load(acc));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  testing::check_golden("glsl/while_loop.glsl", text);
  position_of(text, "while (i < n) {");
  position_of(text, "acc += x;");
}

TEST_CASE("a continue block that is not one expression runs before every continue, also inside a switch") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  LoopBlocks loop = must(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(i), s.load(s.n)}));
  // Continue block: if (i > 5) acc *= 0.5; ++i;
  s.b.set_block(loop.continue_block);
  IfBlocks big = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(i), s.i(5)}), false));
  s.b.set_block(big.true_block);
  s.store(acc, s.op(Opcode::Mul, {s.load(acc), s.f(0.5f)}));
  s.end(Opcode::Merge);
  s.b.set_block(big.merge);
  s.op(Opcode::PrefixIncrement, {i});
  s.end(Opcode::Continue);
  // Body: switch (i) { case 1: continue; default: break; } acc += x;
  s.b.set_block(loop.body);
  const SwitchCase cases[] = {SwitchCase{1u}, SwitchCase{}};
  SwitchBlocks sw = must(s.b.branch_switch(s.load(i), cases));
  s.b.set_block(sw.cases[0]);
  s.end(Opcode::Continue);
  s.b.set_block(sw.cases[1]);
  s.end(Opcode::Break);
  s.b.set_block(sw.merge);
  s.add_to(acc, s.x);
  s.end(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.write_color(s.load(acc));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  testing::check_golden("glsl/continue_in_switch.glsl", text);
  // The continue block sits before the `continue` in the case and at the body's end.
  CHECK(count(text, "acc *= 0.5;") == 2);
  CHECK(count(text, "++i;") == 2);
  const std::size_t in_case = position_of(text, "case 1:");
  CHECK(text.find("acc *= 0.5;", in_case) < text.find("continue;", in_case));
  CHECK(text.find("continue;", in_case) < position_of(text, "default:"));
}

TEST_CASE("a continue block of expression statements becomes the for step") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  const VariableId j = s.b.declare_local({"j", NameSource::Temporary}, kInt, Precision::None, s.i(10));
  LoopBlocks loop = must(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(i), s.load(j)}));
  s.b.set_block(loop.continue_block);
  s.op(Opcode::PostfixIncrement, {i});
  s.store(j, s.op(Opcode::Sub, {s.load(j), s.i(2)}));
  s.end(Opcode::Continue);
  s.b.set_block(loop.body);
  s.add_to(acc, s.x);
  s.end(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.write_color(s.op(Opcode::Add, {s.load(acc), must(s.b.construct(Opcode::ConstructScalarFromScalar, kFloat, {s.load(j)}))}));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  position_of(text, "for (; i < j; i++, j -= 2) {");
}

TEST_CASE("a loop condition with statements is tested at the top of an endless for loop") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  LoopBlocks loop = must(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.store(i, s.op(Opcode::Add, {s.load(i), s.i(1)}));  // i += 1 in the condition
  s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(i), s.load(s.n)}));
  s.b.set_block(loop.continue_block);
  s.store(acc, s.op(Opcode::Mul, {s.load(acc), s.f(0.75f)}));
  s.end(Opcode::Continue);
  s.b.set_block(loop.body);
  IfBlocks skip = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(s.x), s.f(2.0f)}), false));
  s.b.set_block(skip.true_block);
  s.end(Opcode::Continue);
  s.b.set_block(skip.merge);
  s.store(acc, s.op(Opcode::Add, {s.load(acc), s.f(1.0f)}));
  s.end(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.write_color(s.load(acc));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  testing::check_golden("glsl/loop_condition_statements.glsl", text);
  const std::size_t header = position_of(text, "for (;; acc *= 0.75) {");
  CHECK(position_of(text, "i += 1;") > header);
  CHECK(position_of(text, "if (!(i < n)) break;") > position_of(text, "i += 1;"));
}

TEST_CASE("do-loops: a plain condition is do/while, one with statements runs before every continue") {
  for (bool statement_condition : {false, true}) {
    DYNAMIC_SECTION("condition with statements: " << statement_condition) {
      testing::ShaderBuilder s;
      s.begin_main();
      const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
      const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
      LoopBlocks loop = must(s.b.branch_loop(true, true));
      s.b.set_block(loop.body);
      IfBlocks odd = must(s.b.branch_if(s.op(Opcode::EqualComponentwise,
                                             {s.op(Opcode::IMod, {s.load(i), s.i(2)}), s.i(1)}),
                                        false));
      s.b.set_block(odd.true_block);
      s.end(Opcode::Continue);
      s.b.set_block(odd.merge);
      s.add_to(acc, s.x);
      s.end(Opcode::Continue);
      s.b.set_block(loop.continue_block);
      s.op(Opcode::PrefixIncrement, {i});
      s.end(Opcode::Continue);
      s.b.set_block(loop.condition);
      if (statement_condition) s.store(acc, s.op(Opcode::Mul, {s.load(acc), s.f(0.5f)}));
      s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(i), s.load(s.n)}));
      s.b.set_block(loop.merge);
      s.write_color(s.load(acc));
      s.end(Opcode::Return);
      const std::string text = testing::emit_and_compile(s.m);
      position_of(text, "do {");
      CHECK(count(text, "++i;") == 2);
      if (statement_condition) {
        testing::check_golden("glsl/do_loop_statement_condition.glsl", text);
        position_of(text, "} while (loop_again);");
        CHECK(count(text, "loop_again = i < n;") == 2);
      } else {
        position_of(text, "} while (i < n);");
      }
    }
  }
}

TEST_CASE("a loop left through Break with a value assigns a temporary before break") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  LoopBlocks loop = must(s.b.branch_loop(false, false, kFloat));
  s.b.set_block(loop.condition);
  s.end(Opcode::LoopIf, kTrue);
  s.b.set_block(loop.body);
  const RegisterId value = s.op(Opcode::Mul, {s.load(s.x), must(s.b.construct(Opcode::ConstructScalarFromScalar, kFloat, {s.load(i)}))});
  IfBlocks done = must(s.b.branch_if(s.op(Opcode::GreaterThan, {value, s.f(10.0f)}), false));
  s.b.set_block(done.true_block);
  s.end(Opcode::Break, value);
  s.b.set_block(done.merge);
  s.op(Opcode::PrefixIncrement, {i});
  s.end(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.write_color(s.b.merge_input(loop.merge));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  testing::check_golden("glsl/loop_break_value.glsl", text);
  const std::size_t loop_start = position_of(text, "for (;;) {");
  const std::size_t assign = text.find(" = t", loop_start);
  CHECK(assign < text.find("break;", loop_start));
}

TEST_CASE("Ifs with merge inputs: ternaries, && and ||, and branch temporaries") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId keep = s.b.declare_local({"keep", NameSource::Temporary}, kFloat);
  // a = x > 0.0 && n > 2
  const RegisterId c1 = s.op(Opcode::GreaterThan, {s.load(s.x), kFloatZero});
  IfBlocks and_ = must(s.b.branch_if(c1, true, kBool));
  s.b.set_block(and_.true_block);
  s.end(Opcode::Merge, s.op(Opcode::GreaterThan, {s.load(s.n), s.i(2)}));
  s.b.set_block(and_.false_block);
  s.end(Opcode::Merge, kFalse);
  s.b.set_block(and_.merge);
  const RegisterId a = s.b.merge_input(and_.merge);
  // b = a || n < 0
  IfBlocks or_ = must(s.b.branch_if(a, true, kBool));
  s.b.set_block(or_.true_block);
  s.end(Opcode::Merge, kTrue);
  s.b.set_block(or_.false_block);
  s.end(Opcode::Merge, s.op(Opcode::LessThan, {s.load(s.n), s.i(0)}));
  s.b.set_block(or_.merge);
  const RegisterId bvalue = s.b.merge_input(or_.merge);
  // v = b ? <store, then x> : 2.0  -- a branch with a statement needs a temporary
  IfBlocks sel = must(s.b.branch_if(bvalue, true, kFloat));
  s.b.set_block(sel.true_block);
  s.store(keep, s.load(s.x));
  s.end(Opcode::Merge, s.op(Opcode::Add, {s.load(keep), s.f(1.0f)}));
  s.b.set_block(sel.false_block);
  s.end(Opcode::Merge, s.f(2.0f));
  s.b.set_block(sel.merge);
  s.write_color(s.b.merge_input(sel.merge));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  testing::check_golden("glsl/merge_inputs.glsl", text);
  position_of(text, "x > 0.0 && n > 2 || n < 0");
  position_of(text, "} else {");
}

TEST_CASE("switch: fall-through, a default in the middle, braced cases that declare names") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const SwitchCase cases[] = {SwitchCase{0u}, SwitchCase{}, SwitchCase{static_cast<std::uint32_t>(-3)},
                              SwitchCase{7u}};
  SwitchBlocks sw = must(s.b.branch_switch(s.load(s.n), cases));
  s.b.set_block(sw.cases[0]);
  s.end(Opcode::Passthrough);  // case 0: falls into default
  s.b.set_block(sw.cases[1]);
  const RegisterId twice = s.op(Opcode::Mul, {s.load(s.x), s.f(2.0f)});
  s.store(acc, s.op(Opcode::Add, {twice, twice}));  // `twice` is used twice: a temporary in the case
  s.end(Opcode::Passthrough);
  s.b.set_block(sw.cases[2]);
  s.store(acc, s.f(-1.0f));
  s.end(Opcode::Break);
  s.b.set_block(sw.cases[3]);
  s.end(Opcode::Break);
  s.b.set_block(sw.merge);
  s.write_color(s.load(acc));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  testing::check_golden("glsl/switch.glsl", text);
  position_of(text, "case -3:");
  position_of(text, "default: {");
}

TEST_CASE("nested loops keep their own continue blocks") {
  testing::ShaderBuilder s;
  s.begin_main();
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, kFloat, Precision::None, kFloatZero);
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  LoopBlocks outer = must(s.b.branch_loop(false, true));
  s.b.set_block(outer.condition);
  s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(i), s.load(s.n)}));
  s.b.set_block(outer.continue_block);
  IfBlocks w = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(acc), s.f(1.0f)}), false));
  s.b.set_block(w.true_block);
  s.store(acc, s.f(0.0f));
  s.end(Opcode::Merge);
  s.b.set_block(w.merge);
  s.op(Opcode::PrefixIncrement, {i});
  s.end(Opcode::Continue);
  s.b.set_block(outer.body);
  const VariableId j = s.b.declare_local({"j", NameSource::Temporary}, kInt, Precision::None, kIntZero);
  LoopBlocks inner = must(s.b.branch_loop(false, true));
  s.b.set_block(inner.condition);
  s.end(Opcode::LoopIf, s.op(Opcode::LessThan, {s.load(j), s.i(4)}));
  s.b.set_block(inner.continue_block);
  IfBlocks w2 = must(s.b.branch_if(s.op(Opcode::GreaterThan, {s.load(j), s.i(1)}), false));
  s.b.set_block(w2.true_block);
  s.store(acc, s.op(Opcode::Add, {s.load(acc), s.f(0.25f)}));
  s.end(Opcode::Merge);
  s.b.set_block(w2.merge);
  s.op(Opcode::PrefixIncrement, {j});
  s.end(Opcode::Continue);
  s.b.set_block(inner.body);
  IfBlocks skip = must(s.b.branch_if(s.op(Opcode::EqualComponentwise, {s.load(j), s.load(i)}), false));
  s.b.set_block(skip.true_block);
  s.end(Opcode::Continue);
  s.b.set_block(skip.merge);
  s.add_to(acc, s.x);
  s.end(Opcode::Continue);
  s.b.set_block(inner.merge);
  s.end(Opcode::Continue);
  s.b.set_block(outer.merge);
  s.write_color(s.load(acc));
  s.end(Opcode::Return);
  const std::string text = testing::emit_and_compile(s.m);
  CHECK(count(text, "++j;") == 2);  // before the inner `continue` and at the inner body's end
  CHECK(count(text, "++i;") == 1);  // the outer body ends once
}
