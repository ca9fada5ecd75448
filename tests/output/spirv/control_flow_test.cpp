// Golden SPIR-V for small cases of every control-flow form, each built with
// the builder, checked as valid IR, emitted, validated by spirv-val, and
// compared with tests/golden/spirv/<name>.spvasm. Structural facts the
// goldens show are also asserted directly, so a regenerated golden cannot
// silently lose them.
#include <catch2/catch.hpp>

#include "shader_fixture.h"
#include "spirv_interpreter.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

// `x > k` as a bool register.
RegisterId x_greater(testing::ShaderFixture& s, std::int32_t k) {
  return s.emit(Opcode::GreaterThan, {s.load(s.x), s.i(k)});
}

// s = s + v
void add_to(testing::ShaderFixture& s, VariableId var, Operand v) {
  s.store(var, s.emit(Opcode::Add, {s.load(var), v}));
}

testing::Emitted golden(testing::ShaderFixture& s, const std::string& name, spirv::Options options = {}) {
  s.require_valid_ir();
  testing::check_spirv_golden(name, s.m, options);
  return testing::emit_checked(s.m, options);
}

}  // namespace

TEST_CASE("if without a merge value") {
  testing::ShaderFixture s;
  IfBlocks branch = ok(s.b.branch_if(x_greater(s, 0), false));
  s.b.set_block(branch.true_block);
  s.store(s.o, s.i(1));
  s.terminate(Opcode::Merge);
  s.b.set_block(branch.merge);
  s.terminate(Opcode::Return);
  const auto e = golden(s, "if_without_merge_value");
  CHECK(testing::count_of(e.text, "OpSelectionMerge") == 1);
  CHECK(testing::count_of(e.text, "OpPhi") == 0);
}

TEST_CASE("if with a merge value") {
  testing::ShaderFixture s;
  IfBlocks branch = ok(s.b.branch_if(x_greater(s, 0), true, kInt));
  s.b.set_block(branch.true_block);
  s.terminate(Opcode::Merge, s.i(1));
  s.b.set_block(branch.false_block);
  s.terminate(Opcode::Merge, s.emit(Opcode::Negate, {s.load(s.x)}));
  s.b.set_block(branch.merge);
  s.store(s.o, s.b.merge_input(branch.merge));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "if_with_merge_value");
  CHECK(testing::count_of(e.text, "OpPhi %int %int_1") == 1);
}

// `x > 0 && x > 10` as the front end builds it: the left-out false branch
// hands `false` along the condition's false edge, where the condition is
// itself false, so the phi takes the condition (as spirv-opt writes it) and
// no OpConstantFalse is made; `x > 0 || x > 10` the same with `true`.
TEST_CASE("a bool constant handed along its condition's edge is the condition") {
  for (const bool is_or : {false, true}) {
    testing::ShaderFixture s;
    const RegisterId left = x_greater(s, 0);
    IfBlocks branch = ok(s.b.branch_if(left, true, kBool));
    s.b.set_block(is_or ? branch.false_block : branch.true_block);
    s.terminate(Opcode::Merge, x_greater(s, 10));
    s.b.set_block(is_or ? branch.true_block : branch.false_block);
    s.terminate(Opcode::Merge, is_or ? kTrue : kFalse);
    s.b.set_block(branch.merge);
    s.store(s.o, s.emit(Opcode::Select, {s.b.merge_input(branch.merge), s.i(1), s.i(0)}));
    s.terminate(Opcode::Return);
    s.require_valid_ir();
    for (const auto& e : testing::emit_everywhere(s.m)) {
      INFO(e.text);
      CHECK(testing::count_of(e.text, "OpConstantFalse") == 0);
      CHECK(testing::count_of(e.text, "OpConstantTrue") == 0);
      CHECK(testing::count_of(e.text, "OpPhi %bool %") == 1);
      for (const int x : {-1, 5, 11}) {
        const auto run = testing::run_spirv(e.words, {{"x", {static_cast<std::uint32_t>(x)}}});
        INFO(run.error);
        REQUIRE(run.ok);
        const bool expected = is_or ? (x > 0 || x > 10) : (x > 0 && x > 10);
        CHECK(run.outputs.at("o") == testing::Words{expected ? 1u : 0u});
      }
    }
  }
}

TEST_CASE("nested ifs") {
  testing::ShaderFixture s;
  IfBlocks outer = ok(s.b.branch_if(x_greater(s, 0), true));
  s.b.set_block(outer.true_block);
  IfBlocks inner = ok(s.b.branch_if(x_greater(s, 10), true, kInt));
  s.b.set_block(inner.true_block);
  s.terminate(Opcode::Merge, s.i(2));
  s.b.set_block(inner.false_block);
  s.terminate(Opcode::Merge, s.i(1));
  s.b.set_block(inner.merge);
  s.store(s.o, s.b.merge_input(inner.merge));
  s.terminate(Opcode::Merge);
  s.b.set_block(outer.false_block);
  s.store(s.o, s.i(0));
  s.terminate(Opcode::Merge);
  s.b.set_block(outer.merge);
  s.terminate(Opcode::Return);
  const auto e = golden(s, "nested_ifs");
  CHECK(testing::count_of(e.text, "OpSelectionMerge") == 2);
}

TEST_CASE("loop with break and continue from nested ifs") {
  // for (int i = 0; i < x; ++i) { if (i == 3) continue; if (i == 7) break; s += i; } o = s;
  testing::ShaderFixture s;
  VariableId i = s.local("i", s.i(0)), sum = s.local("s", s.i(0));
  LoopBlocks loop = ok(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(i), s.load(s.x)}));
  s.b.set_block(loop.body);
  RegisterId ri = s.load(i);
  IfBlocks skip = ok(s.b.branch_if(s.emit(Opcode::Equal, {ri, s.i(3)}), false));
  s.b.set_block(skip.true_block);
  s.terminate(Opcode::Continue);
  s.b.set_block(skip.merge);
  IfBlocks stop = ok(s.b.branch_if(s.emit(Opcode::Equal, {ri, s.i(7)}), false));
  s.b.set_block(stop.true_block);
  s.terminate(Opcode::Break);
  s.b.set_block(stop.merge);
  add_to(s, sum, ri);
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.continue_block);
  s.emit(Opcode::PrefixIncrement, {i});
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "loop_break_continue");
  CHECK(testing::count_of(e.text, "OpLoopMerge") == 1);
  CHECK(testing::count_of(e.text, "OpVariable %_ptr_Function") == 0);  // i and s are promoted
  SECTION("-O0 keeps the variables") {
    spirv::Options o0;
    o0.promote_to_ssa = false;
    const auto kept = golden(s, "loop_break_continue_O0", o0);
    CHECK(testing::count_of(kept.text, "OpVariable %_ptr_Function_int") == 2);
    CHECK(testing::count_of(kept.text, "OpPhi") == 0);
  }
}

TEST_CASE("do-loop") {
  // int i = 0, s = 0; do { s += i; ++i; } while (i < x); o = s;
  testing::ShaderFixture s;
  VariableId i = s.local("i", s.i(0)), sum = s.local("s", s.i(0));
  LoopBlocks loop = ok(s.b.branch_loop(true, false));
  s.b.set_block(loop.body);
  add_to(s, sum, s.load(i));
  s.emit(Opcode::PrefixIncrement, {i});
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(i), s.load(s.x)}));
  s.b.set_block(loop.merge);
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "do_loop");
  // The back edge comes from the condition: OpBranchConditional %c %header %merge.
  const auto merge = testing::lines_with(e.text, "OpLoopMerge");
  REQUIRE(merge.size() == 1);
  CHECK(testing::count_of(e.text, "OpBranchConditional") == 1);
}

TEST_CASE("do-loop with a continue block") {
  testing::ShaderFixture s;
  VariableId i = s.local("i", s.i(0)), sum = s.local("s", s.i(0));
  LoopBlocks loop = ok(s.b.branch_loop(true, true));
  s.b.set_block(loop.body);
  IfBlocks odd = ok(s.b.branch_if(s.emit(Opcode::Equal, {s.emit(Opcode::BitwiseAnd, {s.load(i), s.i(1)}), s.i(1)}), false));
  s.b.set_block(odd.true_block);
  s.terminate(Opcode::Continue);
  s.b.set_block(odd.merge);
  add_to(s, sum, s.load(i));
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.continue_block);
  s.emit(Opcode::PrefixIncrement, {i});
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(i), s.load(s.x)}));
  s.b.set_block(loop.merge);
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  golden(s, "do_loop_continue");
}

TEST_CASE("switch with fall-through and the default in the middle") {
  // switch (x) { case 1: s = 1; default: s += 2; break; case 3: s = 3; case 4: s += 4; break; }
  testing::ShaderFixture s;
  VariableId sum = s.local("s", s.i(0));
  const SwitchCase cases[] = {{1u}, {std::nullopt}, {3u}, {4u}};
  SwitchBlocks sw = ok(s.b.branch_switch(s.load(s.x), cases));
  s.b.set_block(sw.cases[0]);
  s.store(sum, s.i(1));
  s.terminate(Opcode::Passthrough);
  s.b.set_block(sw.cases[1]);
  add_to(s, sum, s.i(2));
  s.terminate(Opcode::Break);
  s.b.set_block(sw.cases[2]);
  s.store(sum, s.i(3));
  s.terminate(Opcode::Passthrough);
  s.b.set_block(sw.cases[3]);
  add_to(s, sum, s.i(4));
  s.terminate(Opcode::Break);
  s.b.set_block(sw.merge);
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "switch_fallthrough");
  const auto sw_line = testing::lines_with(e.text, "OpSwitch");
  REQUIRE(sw_line.size() == 1);
  // Cases in source order: a case that falls through precedes its target.
  const auto& line = sw_line[0];
  CHECK(line.find(" 1 ") < line.find(" 3 "));
  CHECK(line.find(" 3 ") < line.find(" 4 "));
}

TEST_CASE("switch inside a loop: continue and break") {
  testing::ShaderFixture s;
  VariableId i = s.local("i", s.i(0)), sum = s.local("s", s.i(0));
  LoopBlocks loop = ok(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(i), s.i(10)}));
  s.b.set_block(loop.body);
  const SwitchCase cases[] = {{0u}, {std::nullopt}};
  SwitchBlocks sw = ok(s.b.branch_switch(s.emit(Opcode::BitwiseAnd, {s.load(i), s.i(3)}), cases));
  s.b.set_block(sw.cases[0]);
  s.terminate(Opcode::Continue);
  s.b.set_block(sw.cases[1]);
  add_to(s, sum, s.load(i));
  s.terminate(Opcode::Break);
  s.b.set_block(sw.merge);
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.continue_block);
  s.emit(Opcode::PrefixIncrement, {i});
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  golden(s, "switch_in_loop");
}

TEST_CASE("early return inside a loop, in a function with a parameter") {
  // int root(int n) { for (int i = 0; ; ++i) if (i * i > n) return i; }  o = root(x);
  testing::ShaderFixture s;
  FunctionId root = s.b.begin_function({"root", NameSource::Internal}, kInt);
  VariableId n = s.b.add_parameter(root, {"n", NameSource::Temporary}, kInt, ParamDirection::In);
  VariableId i = s.local("i", s.i(0));
  LoopBlocks loop = ok(s.b.branch_loop(false, true));
  s.b.set_block(loop.condition);
  s.terminate(Opcode::LoopIf, kTrue);
  s.b.set_block(loop.body);
  RegisterId ri = s.load(i);
  IfBlocks found = ok(s.b.branch_if(s.emit(Opcode::GreaterThan, {s.emit(Opcode::Mul, {ri, ri}), s.load(n)}), false));
  s.b.set_block(found.true_block);
  s.terminate(Opcode::Return, ri);
  s.b.set_block(found.merge);
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.continue_block);
  s.emit(Opcode::PrefixIncrement, {i});
  s.terminate(Opcode::Continue);
  s.b.set_block(loop.merge);
  s.terminate(Opcode::Unreachable);
  s.b.set_function(s.main);
  s.b.set_block(s.m.function(s.main).entry);
  const Operand args[] = {root, s.load(s.x)};
  s.store(s.o, ok(s.b.emit(Opcode::Call, args)));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "early_return_in_loop");
  CHECK(testing::count_of(e.text, "OpReturnValue") == 1);
  CHECK(testing::count_of(e.text, "OpUnreachable") == 1);  // the loop's merge block
}

TEST_CASE("discard") {
  testing::ShaderFixture s;
  IfBlocks branch = ok(s.b.branch_if(s.emit(Opcode::LessThan, {s.load(s.x), s.i(0)}), false));
  s.b.set_block(branch.true_block);
  s.terminate(Opcode::Discard);
  s.b.set_block(branch.merge);
  s.store(s.o, s.i(1));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "discard");
  CHECK(testing::count_of(e.text, "OpKill") == 1);
  spirv::Options vk13;
  vk13.target = spirv::TargetEnv::Vulkan1_3;
  const auto e13 = golden(s, "discard_vulkan1_3", vk13);
  CHECK(testing::count_of(e13.text, "OpTerminateInvocation") == 1);
  CHECK(testing::count_of(e13.text, "OpKill") == 0);
}

TEST_CASE("statically unreachable blocks keep their labels") {
  // if (x > 0) { o = 1; return; } else { o = 2; return; }  — the merge block is unreachable.
  testing::ShaderFixture s;
  IfBlocks branch = ok(s.b.branch_if(x_greater(s, 0), true));
  s.b.set_block(branch.true_block);
  s.store(s.o, s.i(1));
  s.terminate(Opcode::Return);
  s.b.set_block(branch.false_block);
  s.store(s.o, s.i(2));
  s.terminate(Opcode::Return);
  s.b.set_block(branch.merge);
  s.terminate(Opcode::Unreachable);
  const auto e = golden(s, "unreachable_merge");
  CHECK(testing::count_of(e.text, "OpUnreachable") == 1);
}

TEST_CASE("a loop whose body always returns keeps its continue target and back edge") {
  // while (x > 0) { o = 1; return; } o = 2;
  testing::ShaderFixture s;
  LoopBlocks loop = ok(s.b.branch_loop(false, false));
  s.b.set_block(loop.condition);
  s.terminate(Opcode::LoopIf, x_greater(s, 0));
  s.b.set_block(loop.body);
  s.store(s.o, s.i(1));
  s.terminate(Opcode::Return);
  s.b.set_block(loop.merge);
  s.store(s.o, s.i(2));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "unreachable_continue");
  // The header's continue target is a block of its own that branches back.
  const auto merge = testing::lines_with(e.text, "OpLoopMerge");
  REQUIRE(merge.size() == 1);
  CHECK(testing::count_of(e.text, "OpBranch ") >= 2);
}

TEST_CASE("nested loops: break and continue of the inner and outer loop") {
  testing::ShaderFixture s;
  VariableId i = s.local("i", s.i(0)), sum = s.local("s", s.i(0));
  LoopBlocks outer = ok(s.b.branch_loop(false, true));
  s.b.set_block(outer.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(i), s.load(s.x)}));
  s.b.set_block(outer.body);
  VariableId j = s.local("j", s.i(0));
  LoopBlocks inner = ok(s.b.branch_loop(false, false));
  s.b.set_block(inner.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(j), s.load(i)}));
  s.b.set_block(inner.body);
  IfBlocks big = ok(s.b.branch_if(s.emit(Opcode::GreaterThan, {s.load(sum), s.i(100)}), false));
  s.b.set_block(big.true_block);
  s.terminate(Opcode::Break);
  s.b.set_block(big.merge);
  add_to(s, sum, s.load(j));
  s.emit(Opcode::PrefixIncrement, {j});
  s.terminate(Opcode::Continue);
  s.b.set_block(inner.merge);
  IfBlocks done = ok(s.b.branch_if(s.emit(Opcode::GreaterThan, {s.load(sum), s.i(100)}), false));
  s.b.set_block(done.true_block);
  s.terminate(Opcode::Break);
  s.b.set_block(done.merge);
  s.terminate(Opcode::Continue);
  s.b.set_block(outer.continue_block);
  s.emit(Opcode::PrefixIncrement, {i});
  s.terminate(Opcode::Continue);
  s.b.set_block(outer.merge);
  s.store(s.o, s.load(sum));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "nested_loops");
  CHECK(testing::count_of(e.text, "OpLoopMerge") == 2);
}

TEST_CASE("next-block chains branch to their merge block") {
  testing::ShaderFixture s;
  s.store(s.o, s.i(1));
  BlockId next = ok(s.b.next_block());
  s.b.set_block(next);
  s.store(s.o, s.i(2));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "next_block");
  CHECK(testing::count_of(e.text, "OpBranch ") == 1);
}

TEST_CASE("an unreachable merge block inside a continue construct still leads to the back edge") {
  // for (i = 0; i < x; i = next(i)) {} where the continue block holds a loop
  // whose body is `if (j > 2) break; else continue;`: that If's merge block
  // is unreachable. OpUnreachable there would be a structured path out of
  // the outer continue construct that skips its back-edge block (the
  // POPL'23 paper's second backwards-incompatible idiom); it branches to the
  // inner loop's merge block instead.
  testing::ShaderFixture s;
  VariableId i = s.local("i", s.i(0));
  LoopBlocks outer = ok(s.b.branch_loop(false, true));
  s.b.set_block(outer.condition);
  s.terminate(Opcode::LoopIf, s.emit(Opcode::LessThan, {s.load(i), s.load(s.x)}));
  s.b.set_block(outer.body);
  s.terminate(Opcode::Continue);
  s.b.set_block(outer.continue_block);
  VariableId j = s.local("j", s.i(0));
  LoopBlocks inner = ok(s.b.branch_loop(false, false));
  s.b.set_block(inner.condition);
  s.terminate(Opcode::LoopIf, kTrue);
  s.b.set_block(inner.body);
  s.emit(Opcode::PrefixIncrement, {j});
  IfBlocks leave = ok(s.b.branch_if(s.emit(Opcode::GreaterThan, {s.load(j), s.i(2)}), true));
  s.b.set_block(leave.true_block);
  s.terminate(Opcode::Break);
  s.b.set_block(leave.false_block);
  s.terminate(Opcode::Continue);
  s.b.set_block(leave.merge);
  s.terminate(Opcode::Unreachable);
  s.b.set_block(inner.merge);
  s.store(i, s.emit(Opcode::Add, {s.load(i), s.load(j)}));
  s.terminate(Opcode::Continue);
  s.b.set_block(outer.merge);
  s.store(s.o, s.load(i));
  s.terminate(Opcode::Return);
  const auto e = golden(s, "unreachable_merge_in_continue");
  CHECK(testing::count_of(e.text, "OpUnreachable") == 0);
  CHECK(testing::count_of(e.text, "OpLoopMerge") == 2);
}

TEST_CASE("a branch holding only its Merge is left out: the header hands its value to the merge block") {
  // `x > 0 ? x * 2 : 7` as the front ends build `&&`, `||` and `?:`.
  testing::ShaderFixture s;
  IfBlocks branch = ok(s.b.branch_if(x_greater(s, 0), true, kInt));
  s.b.set_block(branch.true_block);
  s.terminate(Opcode::Merge, s.emit(Opcode::Mul, {s.load(s.x), s.i(2)}));
  s.b.set_block(branch.false_block);
  s.terminate(Opcode::Merge, s.i(7));
  s.b.set_block(branch.merge);
  s.store(s.o, s.b.merge_input(branch.merge));
  s.terminate(Opcode::Return);
  s.require_valid_ir();
  for (spirv::TargetEnv target : testing::all_targets()) {
    spirv::Options options;
    options.target = target;
    const auto e = testing::emit_checked(s.m, options);
    CHECK(testing::count_of(e.text, "OpLabel") == 3);  // entry, the true branch, the merge block
    const auto branches = testing::lines_with(e.text, "OpBranchConditional");
    REQUIRE(branches.size() == 1);
    const auto merges = testing::lines_with(e.text, "OpSelectionMerge");
    REQUIRE(merges.size() == 1);
    // The false target is the merge block itself.
    const std::string merge_label = merges[0].substr(merges[0].find('%'), merges[0].find(" None") - merges[0].find('%'));
    CHECK(branches[0].substr(branches[0].rfind(' ') + 1) == merge_label);
    // The phi takes 7 from the header (the entry block) and x * 2 from the true branch.
    const auto phis = testing::lines_with(e.text, "OpPhi %int %int_7");
    CHECK(phis.size() == 1);
  }
}

TEST_CASE("only one of two bare branches is left out, so that the two targets differ") {
  testing::ShaderFixture s;
  IfBlocks branch = ok(s.b.branch_if(x_greater(s, 0), true, kInt));
  s.b.set_block(branch.true_block);
  s.terminate(Opcode::Merge, s.i(1));
  s.b.set_block(branch.false_block);
  s.terminate(Opcode::Merge, s.i(2));
  s.b.set_block(branch.merge);
  s.store(s.o, s.b.merge_input(branch.merge));
  s.terminate(Opcode::Return);
  s.require_valid_ir();
  const auto e = testing::emit_checked(s.m);
  CHECK(testing::count_of(e.text, "OpLabel") == 3);
  const auto phis = testing::lines_with(e.text, "OpPhi %int");
  REQUIRE(phis.size() == 1);
  CHECK(phis[0].find("%int_1 ") != std::string::npos);  // both values reach the phi
  CHECK(phis[0].find("%int_2 ") != std::string::npos);
}
