// The fall-through-in-memory driver workaround (spirv::Options::
// fall_through_in_memory, docs/workarounds.md): a variable that promotion
// would carry through an OpPhi in a switch case entered by fall-through, in
// a switch inside a loop or in a function other than the entry point, stays
// in Function memory; everything else is emitted as without it.
#include <catch2/catch.hpp>

#include "shader_fixture.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

void add_to(testing::ShaderFixture& s, VariableId var, Operand v) {
  s.store(var, s.emit(Opcode::Add, {s.load(var), v}));
}

// switch (sel) { case 1: s += 1; case 2: s += 2; default: s += 4; }  (both
// falling through), then `s += 8` in the merge block, in the current block.
void fall_through_switch(testing::ShaderFixture& s, VariableId sum, Operand sel) {
  const SwitchCase cases[] = {{1u}, {2u}, {std::nullopt}};
  SwitchBlocks sw = ok(s.b.branch_switch(sel, cases));
  s.b.set_block(sw.cases[0]);
  add_to(s, sum, s.i(1));
  s.terminate(Opcode::Passthrough);
  s.b.set_block(sw.cases[1]);
  add_to(s, sum, s.i(2));
  s.terminate(Opcode::Passthrough);
  s.b.set_block(sw.cases[2]);
  add_to(s, sum, s.i(4));
  s.terminate(Opcode::Break);
  s.b.set_block(sw.merge);
  add_to(s, sum, s.i(8));
}

// for (int i = 0; i < x; ++i) { fall_through_switch(s, i & 3) }  o = s;
void switch_in_loop(testing::ShaderFixture& s) {
  VariableId i = s.local("i", s.i(0)), sum = s.local("s", s.i(0));
  LoopBlocks loop = ok(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(i), s.load(s.x)}));
  s.b.set_block(loop.body);
  fall_through_switch(s, sum, s.emit(Opcode::BitwiseAnd, {s.load(i), s.i(3)}));
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.continue_block);
  s.emit(Opcode::PrefixIncrement, {i});
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  s.require_valid_ir();
}

spirv::Options with_workaround() {
  spirv::Options o;
  o.fall_through_in_memory = true;
  return o;
}

// The OpPhi lines of the block labelled `label` ("%23 = OpLabel").
std::size_t phis_in_block(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label + " = OpLabel");
  if (at == std::string::npos) return 0;
  std::size_t count = 0, line = text.find('\n', at) + 1;
  while (line < text.size()) {
    const std::size_t end = text.find('\n', line);
    const std::string l = text.substr(line, end - line);
    if (l.find("OpPhi") == std::string::npos) break;
    ++count;
    line = end + 1;
  }
  return count;
}

// The labels of the OpSwitch's targets, in its order (default first).
std::vector<std::string> switch_targets(const std::string& text) {
  const auto lines = testing::lines_with(text, "OpSwitch");
  REQUIRE(lines.size() == 1);
  std::vector<std::string> out;
  std::size_t pos = 0;
  while ((pos = lines[0].find('%', pos)) != std::string::npos) {
    const std::size_t end = lines[0].find(' ', pos);
    out.push_back(lines[0].substr(pos, end - pos));
    pos = end == std::string::npos ? lines[0].size() : end;
  }
  out.erase(out.begin());  // the selector
  return out;
}

}  // namespace

TEST_CASE("fall-through-in-memory keeps a variable carried through a fall-through in a loop in memory") {
  testing::ShaderFixture s;
  switch_in_loop(s);
  const testing::Emitted plain = testing::emit_checked(s.m);
  const testing::Emitted worked = testing::emit_checked(s.m, with_workaround());
  // Without it, `s` reaches the case `2` and the default through OpPhi: both
  // are entered from the header and by fall-through (the lavapipe trigger).
  const std::vector<std::string> targets = switch_targets(plain.text);  // default, case 1, case 2
  REQUIRE(targets.size() == 3);
  CHECK(phis_in_block(plain.text, targets[0]) == 1);
  CHECK(phis_in_block(plain.text, targets[2]) == 1);
  CHECK(testing::count_of(plain.text, "OpVariable %_ptr_Function_int Function") == 0);
  // With it, `s` is one Function variable and no case block has a phi; the
  // loop counter `i`, which crosses no fall-through, is still promoted.
  const std::vector<std::string> worked_targets = switch_targets(worked.text);
  REQUIRE(worked_targets.size() == 3);
  for (const std::string& t : worked_targets) CHECK(phis_in_block(worked.text, t) == 0);
  CHECK(testing::count_of(worked.text, "%s = OpVariable %_ptr_Function_int Function") == 1);
  CHECK(testing::count_of(worked.text, "%i = OpVariable") == 0);
  CHECK(testing::count_of(worked.text, "OpPhi") > 0);  // the loop header's phi of `i`
  CHECK(testing::count_of(worked.text, "OpStore %s") == 4);  // three cases and the merge (the OpVariable initializes)
}

TEST_CASE("fall-through-in-memory leaves a switch outside any loop of the entry point alone") {
  testing::ShaderFixture s;
  VariableId sum = s.local("s", s.i(0));
  fall_through_switch(s, sum, s.load(s.x));
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  s.require_valid_ir();
  const testing::Emitted plain = testing::emit_checked(s.m);
  CHECK(testing::count_of(plain.text, "OpPhi") > 0);
  CHECK(testing::emit_checked(s.m, with_workaround()).words == plain.words);
}

TEST_CASE("fall-through-in-memory covers every switch of a function other than the entry point") {
  // int f(int x) { int s = 0; switch (x) {...} return s; }  o = f(x);  (a caller may loop)
  testing::ShaderFixture s;
  FunctionId f = s.b.begin_function({"f", NameSource::Internal}, kInt);
  VariableId x = s.b.add_parameter(f, {"xp", NameSource::Temporary}, kInt, ParamDirection::In);
  VariableId sum = s.local("s", s.i(0));
  fall_through_switch(s, sum, s.load(x));
  s.terminate(Opcode::Return, s.load(sum));
  s.b.set_function(s.main);
  s.b.set_block(s.m.function(s.main).entry);
  const Operand args[] = {f, s.load(s.x)};
  s.store(s.o, ok(s.b.emit(Opcode::Call, args)));
  s.terminate(Opcode::Return);
  s.require_valid_ir();
  const testing::Emitted plain = testing::emit_checked(s.m);
  const testing::Emitted worked = testing::emit_checked(s.m, with_workaround());
  CHECK(testing::count_of(plain.text, "OpPhi") > 0);
  CHECK(testing::count_of(worked.text, "OpPhi") == 0);
  CHECK(testing::count_of(worked.text, "%s = OpVariable %_ptr_Function_int Function") == 1);
}

TEST_CASE("fall-through-in-memory changes nothing at -O0, where nothing is promoted") {
  testing::ShaderFixture s;
  switch_in_loop(s);
  spirv::Options o0;
  o0.promote_to_ssa = false;
  spirv::Options o0_worked = with_workaround();
  o0_worked.promote_to_ssa = false;
  CHECK(testing::emit_checked(s.m, o0_worked).words == testing::emit_checked(s.m, o0).words);
}
