// Where each terminator may appear, and merge inputs with the values that
// Merge and Break carry to them. Every test builds a valid module, checks it
// validates, then breaks one rule.
#include <fmt/format.h>

#include "validator/validator_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using sluice::testing::last;
using sluice::testing::must;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;
using sluice::testing::ShaderFixture;

namespace {

LoopBlocks build_loop(ShaderFixture& s) {
  LoopBlocks l = must(s.b.branch_loop(false, true));
  s.b.set_block(l.condition);
  s.end(Opcode::LoopIf, s.compare(s.load_scale()));
  s.b.set_block(l.body);
  s.end(Opcode::Continue);
  s.b.set_block(l.continue_block);
  s.end(Opcode::Continue);
  s.b.set_block(l.merge);
  s.end(Opcode::Return);
  return l;
}

SwitchBlocks build_switch(ShaderFixture& s) {
  RegisterId selector = must(s.b.construct(Opcode::ConstructScalarFromScalar, kInt, {s.load_scale()}));
  const SwitchCase cases[] = {{3u}, {std::nullopt}};
  SwitchBlocks sw = must(s.b.branch_switch(selector, cases));
  s.b.set_block(sw.cases[0]);
  s.end(Opcode::Passthrough);
  s.b.set_block(sw.cases[1]);
  s.end(Opcode::Break);
  s.b.set_block(sw.merge);
  s.end(Opcode::Return);
  return sw;
}

// color = scale < 1 ? 1.0 : 0.0, through an If merge input.
IfBlocks build_select(ShaderFixture& s) {
  IfBlocks i = must(s.b.branch_if(s.compare(s.load_scale()), true, kFloat, Precision::Medium));
  s.b.set_block(i.true_block);
  s.end(Opcode::Merge, kFloatOne);
  s.b.set_block(i.false_block);
  s.end(Opcode::Merge, kFloatZero);
  s.b.set_block(i.merge);
  s.store_color(s.b.merge_input(i.merge));
  s.end(Opcode::Return);
  return i;
}

// A loop left only through `Break 1.0`, whose merge input is stored.
LoopBlocks build_loop_with_result(ShaderFixture& s) {
  LoopBlocks l = must(s.b.branch_loop(false, false, kFloat));
  s.b.set_block(l.condition);
  s.end(Opcode::LoopIf, kTrue);
  s.b.set_block(l.body);
  s.end(Opcode::Break, kFloatOne);
  s.b.set_block(l.merge);
  s.store_color(s.b.merge_input(l.merge));
  s.end(Opcode::Return);
  return l;
}

void set_terminator(Block& b, Opcode op, std::initializer_list<Operand> operands = {}) {
  b.instructions.back().opcode = op;
  b.instructions.back().operands.assign(operands.begin(), operands.end());
}

}  // namespace

TEST_CASE("Break only inside a loop or switch", "[validator][control]") {
  ShaderFixture s;
  s.end(Opcode::Return);
  require_valid(s.m);
  set_terminator(s.entry(), Opcode::Break);
  auto p = require_only_problem(s.m, "Break outside a loop or switch");
  CHECK(p.block == s.fn().entry);
  CHECK(p.instruction == 0);
}

TEST_CASE("Break not in a loop's continue chain", "[validator][control]") {
  ShaderFixture s;
  LoopBlocks l = build_loop(s);
  require_valid(s.m);
  set_terminator(s.block(l.continue_block), Opcode::Break);
  require_only_problem(s.m, "Break inside a loop's continue chain");
}

TEST_CASE("Continue only inside a loop", "[validator][control]") {
  ShaderFixture s;
  build_switch(s);
  require_valid(s.m);
  set_terminator(s.block(s.entry().case_blocks[1]), Opcode::Continue);
  require_only_problem(s.m, "Continue outside a loop");
}

TEST_CASE("Passthrough only in a switch case", "[validator][control]") {
  ShaderFixture s;
  LoopBlocks l = build_loop(s);
  require_valid(s.m);
  set_terminator(s.block(l.body), Opcode::Passthrough);
  require_only_problem(s.m, "Passthrough outside a switch case");
}

TEST_CASE("Passthrough only in a case that has a next case", "[validator][control]") {
  ShaderFixture s;
  SwitchBlocks sw = build_switch(s);
  require_valid(s.m);
  set_terminator(s.block(sw.cases[1]), Opcode::Passthrough);
  auto p = require_only_problem(s.m, "Passthrough in the last case of a switch: there is no next case");
  CHECK(p.block == sw.cases[1]);
  CHECK(validator::describe(s.m, p).find("Case Default block") != std::string::npos);
}

TEST_CASE("LoopIf only ends a loop condition chain", "[validator][control]") {
  ShaderFixture s;
  LoopBlocks l = build_loop(s);
  require_valid(s.m);
  set_terminator(s.block(l.body), Opcode::LoopIf, {kTrue});
  require_only_problem(s.m, "LoopIf outside a loop condition chain");
}

TEST_CASE("loop condition chains end only with LoopIf", "[validator][control]") {
  ShaderFixture s;
  LoopBlocks l = build_loop(s);
  require_valid(s.m);
  set_terminator(s.block(l.condition), Opcode::Break);
  auto p = require_only_problem(s.m, "the loop condition chain ends with Break; it must end with LoopIf");
  CHECK(p.block == l.condition);
}

TEST_CASE("Merge only inside an If's sub-block chain", "[validator][control]") {
  ShaderFixture s;
  LoopBlocks l = build_loop(s);
  require_valid(s.m);
  set_terminator(s.block(l.body), Opcode::Merge);
  require_only_problem(s.m, "Merge outside an If's sub-block chain");
}

TEST_CASE("Discard only in fragment shaders", "[validator][control]") {
  ShaderFixture s;
  s.end(Opcode::Discard);
  require_valid(s.m);
  s.m.shader().stage = ShaderStage::Vertex;
  require_only_problem(s.m, "Discard in a Vertex shader; only fragment shaders discard");
}

TEST_CASE("Return's value matches the function's return type", "[validator][control]") {
  ShaderFixture s;
  s.end(Opcode::Return);
  FunctionId f = s.b.begin_function({"half", NameSource::Internal}, kFloat);
  RegisterId half = must(s.b.emit(Opcode::Mul, {s.load_scale(), s.m.float_constant(0.5f)}));
  s.end(Opcode::Return, half);
  const BlockId entry = s.m.function(f).entry;
  require_valid(s.m);
  Block& main_entry = s.entry();
  Block& f_entry = s.m.function(f).block(entry);
  SECTION("a value in a void function") {
    set_terminator(main_entry, Opcode::Return, {kFloatOne});
    require_only_problem(s.m, "Return with a value in a function returning void");
  }
  SECTION("no value in a non-void function") {
    set_terminator(f_entry, Opcode::Return);
    require_only_problem(s.m, "Return without a value in a function returning float");
  }
  SECTION("a value of another type") {
    set_terminator(f_entry, Opcode::Return, {kIntOne});
    require_only_problem(s.m, "Return value has type int, but the function returns float");
  }
}

TEST_CASE("no Return inside a continue chain", "[validator][control]") {
  ShaderFixture s;
  LoopBlocks l = build_loop(s);
  require_valid(s.m);
  set_terminator(s.block(l.continue_block), Opcode::Return);
  require_only_problem(s.m, "Return inside a loop's continue chain");
}

TEST_CASE("merge inputs: If merge blocks take a value from every Merge", "[validator][merge-input]") {
  ShaderFixture s;
  IfBlocks i = build_select(s);
  require_valid(s.m);
  const RegisterId input = s.block(i.merge).merge_input;
  SECTION("Merge without a value") {
    set_terminator(s.block(i.true_block), Opcode::Merge);
    require_only_problem(s.m, fmt::format("Merge carries no value, but the If merge block b{} has input r{} of type "
                                          "float",
                                          i.merge.index(), input.index()));
  }
  SECTION("Merge with a value of another type") {
    set_terminator(s.block(i.false_block), Opcode::Merge, {kIntZero});
    require_only_problem(s.m,
                         fmt::format("Merge value has type int, but merge input r{} has type float", input.index()));
  }
}

TEST_CASE("merge inputs: Merge with a value needs an input", "[validator][merge-input]") {
  ShaderFixture s;
  IfBlocks i = must(s.b.branch_if(s.compare(s.load_scale()), true));
  s.b.set_block(i.true_block);
  s.end(Opcode::Merge);
  s.b.set_block(i.false_block);
  s.end(Opcode::Merge);
  s.b.set_block(i.merge);
  s.end(Opcode::Return);
  require_valid(s.m);
  set_terminator(s.block(i.true_block), Opcode::Merge, {kFloatOne});
  require_only_problem(s.m,
                       fmt::format("Merge carries a value, but the If merge block b{} has no input", i.merge.index()));
}

TEST_CASE("merge inputs: an If with a merge input needs a false block", "[validator][merge-input]") {
  ShaderFixture s;
  IfBlocks i = build_select(s);
  require_valid(s.m);
  s.entry().sub_blocks_storage[1] = BlockId{};
  require_only_problem(s.m, fmt::format("If without a false block, but its merge block b{} has an input: the false "
                                        "edge carries no value",
                                        i.merge.index()));
}

TEST_CASE("merge inputs: not in Switch merge blocks", "[validator][merge-input]") {
  ShaderFixture s;
  SwitchBlocks sw = build_switch(s);
  require_valid(s.m);
  const RegisterId r = s.m.new_register(kFloat);
  s.block(sw.merge).merge_input = r;
  require_only_problem(s.m, fmt::format("merge input r{} in the merge block of a Switch; only If and loop merge "
                                        "blocks take an input",
                                        r.index()));
}

TEST_CASE("merge inputs: Break out of a Switch carries no value", "[validator][merge-input]") {
  ShaderFixture s;
  SwitchBlocks sw = build_switch(s);
  require_valid(s.m);
  set_terminator(s.block(sw.cases[1]), Opcode::Break, {kFloatOne});
  require_only_problem(s.m, "Break out of a Switch carries a value; Switch merge blocks take no input");
}

TEST_CASE("merge inputs: only in merge blocks", "[validator][merge-input]") {
  ShaderFixture s;
  s.end(Opcode::Return);
  require_valid(s.m);
  const RegisterId r = s.m.new_register(kFloat);
  s.entry().merge_input = r;
  require_only_problem(s.m, fmt::format("merge input r{} in a block that is not a merge block", r.index()));
}

TEST_CASE("merge inputs: loops feed them through Break and test LoopIf true", "[validator][merge-input]") {
  ShaderFixture s;
  LoopBlocks l = build_loop_with_result(s);
  require_valid(s.m);
  const RegisterId input = s.block(l.merge).merge_input;
  SECTION("LoopIf of something other than true") {
    set_terminator(s.block(l.condition), Opcode::LoopIf, {kFalse});
    require_only_problem(s.m, fmt::format("the loop's merge block b{} has input r{}, so its condition must end with "
                                          "LoopIf true: the loop is left only through Break with a value",
                                          l.merge.index(), input.index()));
  }
  SECTION("Break with a value of another type") {
    set_terminator(s.block(l.body), Opcode::Break, {kUintOne});
    require_only_problem(s.m,
                         fmt::format("Break value has type uint, but merge input r{} has type float", input.index()));
  }
  SECTION("Break without a value") {
    set_terminator(s.block(l.body), Opcode::Break);
    require_only_problem(s.m, fmt::format("Break carries no value, but the loop merge block b{} has input r{} of "
                                          "type float",
                                          l.merge.index(), input.index()));
  }
}

TEST_CASE("terminators: If tests a bool and Switch an int or uint", "[validator][control]") {
  ShaderFixture s;
  SECTION("If") {
    build_select(s);
    require_valid(s.m);
    s.entry().instructions.back().operands[0] = kFloatOne;
    require_only_problem(s.m, "If condition has type float, not bool");
  }
  SECTION("Switch") {
    build_switch(s);
    require_valid(s.m);
    s.entry().instructions.back().operands[0] = kFloatOne;
    require_only_problem(s.m, "Switch selector has type float, not int or uint");
  }
}

TEST_CASE("terminators give no value", "[validator][control]") {
  ShaderFixture s;
  s.end(Opcode::Return);
  require_valid(s.m);
  const RegisterId r = s.m.new_register(kFloat);
  s.entry().instructions.back().result = r;
  auto p = require_only_problem(s.m, fmt::format("Return has result r{}; terminators give no value", r.index()));
  CHECK(p.instruction == last(s.entry()));
}
