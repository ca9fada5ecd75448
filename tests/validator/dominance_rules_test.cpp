// Dominance of registers and scoping of variables in the block tree. Every
// test builds a valid module, checks it validates, then breaks one rule.
#include <fmt/format.h>

#include "validator/validator_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using sluice::testing::must;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;
using sluice::testing::ShaderFixture;

namespace {

const std::string kNotDominating =
    "is used where its definition does not dominate: it is defined later, or in a block that is not on the path to "
    "this one";

// The operand of the first instruction of `b` with this opcode.
Operand& operand_of(Block& b, Opcode op, std::size_t index) {
  for (Instruction& inst : b.instructions)
    if (inst.opcode == op) return inst.operands[index];
  FAIL("no such instruction");
  static Operand none;
  return none;
}

// if (scale < 1) color = vec4(-scale) else color = vec4(-scale); each branch
// loads scale itself.
struct Branches {
  IfBlocks blocks;
  RegisterId true_load, false_load;
};
Branches build_branches(ShaderFixture& s) {
  Branches r;
  r.blocks = must(s.b.branch_if(s.compare(s.load_scale()), true));
  s.b.set_block(r.blocks.true_block);
  r.true_load = s.load_scale();
  s.store_color(must(s.b.emit(Opcode::Negate, {r.true_load})));
  s.end(Opcode::Merge);
  s.b.set_block(r.blocks.false_block);
  r.false_load = s.load_scale();
  s.store_color(must(s.b.emit(Opcode::Negate, {r.false_load})));
  s.end(Opcode::Merge);
  s.b.set_block(r.blocks.merge);
  s.store_color(s.load_scale());
  s.end(Opcode::Return);
  return r;
}

}  // namespace

TEST_CASE("dominance: a register used before its definition in the same block", "[validator][dominance]") {
  ShaderFixture s;
  RegisterId loaded = s.load_scale();
  s.store_color(must(s.b.emit(Opcode::Negate, {loaded})));
  s.end(Opcode::Return);
  require_valid(s.m);
  std::swap(s.entry().instructions[0], s.entry().instructions[1]);  // Negate before the Load
  auto p = require_only_problem(s.m, fmt::format("r{} {}", loaded.index(), kNotDominating));
  CHECK(p.instruction == 0);
}

TEST_CASE("dominance: a register from a sibling branch", "[validator][dominance]") {
  ShaderFixture s;
  Branches br = build_branches(s);
  require_valid(s.m);
  operand_of(s.block(br.blocks.false_block), Opcode::Negate, 0) = br.true_load;
  auto p = require_only_problem(s.m, fmt::format("r{} {}", br.true_load.index(), kNotDominating));
  CHECK(p.block == br.blocks.false_block);
}

TEST_CASE("dominance: a register from a branch is not visible in the merge block", "[validator][dominance]") {
  ShaderFixture s;
  Branches br = build_branches(s);
  require_valid(s.m);
  // The merge block's ConstructVectorFromScalar takes the true branch's value.
  operand_of(s.block(br.blocks.merge), Opcode::ConstructVectorFromScalar, 0) = br.true_load;
  require_only_problem(s.m, fmt::format("r{} {}", br.true_load.index(), kNotDominating));
}

TEST_CASE("dominance: the enclosing chain's registers are visible in sub-blocks and merge blocks",
          "[validator][dominance]") {
  ShaderFixture s;
  RegisterId outer = s.load_scale();
  IfBlocks i = must(s.b.branch_if(s.compare(outer), false));
  s.b.set_block(i.true_block);
  BlockId next = must(s.b.next_block());
  s.b.set_block(next);
  s.store_color(outer);  // two levels down, after a NextBlock
  s.end(Opcode::Merge);
  s.b.set_block(i.merge);
  s.store_color(outer);
  s.end(Opcode::Return);
  require_valid(s.m);
}

TEST_CASE("dominance: loop body registers are not visible in the loop condition", "[validator][dominance]") {
  ShaderFixture s;
  LoopBlocks l = must(s.b.branch_loop(false, false));
  s.b.set_block(l.condition);
  s.end(Opcode::LoopIf, s.compare(s.load_scale()));
  s.b.set_block(l.body);
  RegisterId in_body = s.load_scale();
  s.store_color(in_body);
  s.end(Opcode::Continue);
  s.b.set_block(l.merge);
  s.end(Opcode::Return);
  require_valid(s.m);
  operand_of(s.block(l.condition), Opcode::LessThan, 0) = in_body;
  require_only_problem(s.m, fmt::format("r{} {}", in_body.index(), kNotDominating));
}

TEST_CASE("dominance: each register is defined once", "[validator][dominance]") {
  ShaderFixture s;
  RegisterId first = s.load_scale();
  s.load_scale();  // unused second load
  s.store_color(first);
  s.end(Opcode::Return);
  require_valid(s.m);
  s.entry().instructions[1].result = first;
  auto p = require_only_problem(s.m, fmt::format("r{} is defined more than once", first.index()));
  CHECK(p.instruction == 1);
}

TEST_CASE("dominance: a register that is never defined", "[validator][dominance]") {
  ShaderFixture s;
  s.store_color(s.load_scale());
  s.end(Opcode::Return);
  require_valid(s.m);
  const RegisterId orphan = s.m.new_register(kFloat);
  operand_of(s.entry(), Opcode::ConstructVectorFromScalar, 0) = orphan;
  require_only_problem(s.m, fmt::format("r{} is used but never defined", orphan.index()));
}

TEST_CASE("dominance: a register of another function", "[validator][dominance]") {
  ShaderFixture s;
  s.store_color(s.load_scale());
  s.end(Opcode::Return);
  FunctionId helper = s.b.begin_function({"helper", NameSource::Internal}, kFloat);
  RegisterId theirs = s.load_scale();
  s.end(Opcode::Return, theirs);
  require_valid(s.m);
  operand_of(s.entry(), Opcode::ConstructVectorFromScalar, 0) = theirs;
  require_only_problem(
      s.m, fmt::format("r{} is defined in f{} 'helper', not in this function", theirs.index(), helper.index()));
}

TEST_CASE("variables: a local is visible only where its declaring block dominates", "[validator][variables]") {
  ShaderFixture s;
  VariableId local = s.b.declare_local({"x", NameSource::Temporary}, kFloat);
  IfBlocks i = must(s.b.branch_if(s.compare(s.load_scale()), false));
  s.b.set_block(i.true_block);
  must(s.b.store(local, kFloatOne));
  s.end(Opcode::Merge);
  s.b.set_block(i.merge);
  s.store_color(must(s.b.load(local)));
  s.end(Opcode::Return);
  require_valid(s.m);
  // Move the declaration into the true block: the merge block's Load is then outside its scope.
  s.entry().declarations.clear();
  s.block(i.true_block).declarations.push_back(local);
  auto p = require_only_problem(s.m, fmt::format("v{} is used where it is not declared: it is neither a parameter of "
                                                 "this function nor declared in this block or one that dominates it",
                                                 local.index()));
  CHECK(p.block == i.merge);
}

TEST_CASE("variables: each local is declared once", "[validator][variables]") {
  ShaderFixture s;
  VariableId local = s.b.declare_local({"x", NameSource::Temporary}, kFloat, Precision::None, kFloatOne);
  BlockId next = must(s.b.next_block());
  s.b.set_block(next);
  s.store_color(must(s.b.load(local)));
  s.end(Opcode::Return);
  require_valid(s.m);
  s.block(next).declarations.push_back(local);
  auto p = require_only_problem(s.m, fmt::format("v{} is declared more than once", local.index()));
  CHECK(p.block == next);
}

TEST_CASE("variables: blocks declare only Function-storage variables", "[validator][variables]") {
  ShaderFixture s;
  s.end(Opcode::Return);
  Variable output;
  output.name = {"extra", NameSource::Interface};
  output.type = s.m.pointer_type(kVec4, StorageClass::Output);
  const VariableId v = s.m.add_variable(output);  // in the table, not used anywhere yet
  require_valid(s.m);
  s.entry().declarations.push_back(v);
  require_only_problem(s.m, fmt::format("v{} has Output storage; blocks declare only Function-storage variables, the "
                                        "others are globals",
                                        v.index()));
}

TEST_CASE("variables: a non-Function variable that is used must be a global", "[validator][variables]") {
  ShaderFixture s;
  s.store_color(s.load_scale());
  s.end(Opcode::Return);
  require_valid(s.m);
  s.m.globals().erase(s.m.globals().begin());  // drop `color`
  require_only_problem(s.m, fmt::format("v{} has Output storage but is not listed in Globals", s.color.index()));
}

TEST_CASE("variables: parameters are visible only in their own function", "[validator][variables]") {
  ShaderFixture s;
  s.store_color(s.load_scale());
  s.end(Opcode::Return);
  FunctionId twice = s.b.begin_function({"twice", NameSource::Internal}, kFloat);
  VariableId x = s.b.add_parameter(twice, {"x", NameSource::Temporary}, kFloat, ParamDirection::In);
  RegisterId loaded = must(s.b.load(x));
  s.end(Opcode::Return, must(s.b.emit(Opcode::Add, {loaded, loaded})));
  require_valid(s.m);
  // main loads the parameter of `twice` instead of `scale`.
  operand_of(s.entry(), Opcode::Load, 0) = x;
  require_only_problem(s.m, fmt::format("v{} is used where it is not declared: it is neither a parameter of this "
                                        "function nor declared in this block or one that dominates it",
                                        x.index()));
}
