// The IR each form lowers to: If with a merge input, rec-func as a Loop over
// Function-storage variables, deduplicated constants, the shader interface,
// IR functions for closed first-order applications. Every module passes the
// validator (lv_compile).
#include <catch2/catch.hpp>

#include "ir/predefined.h"
#include "ir/typing.h"
#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;
using ir::Opcode;

namespace {

struct Found {
  ir::BlockId block;
  std::size_t index;
};

// Every instruction with opcode `op` in `f`, with its block.
std::vector<Found> find(const ir::Function& f, Opcode op) {
  std::vector<Found> out;
  for (std::uint32_t b = 0; b < f.blocks.size(); ++b)
    for (std::size_t i = 0; i < f.blocks[b].instructions.size(); ++i)
      if (f.blocks[b].instructions[i].opcode == op) out.push_back({ir::BlockId(b), i});
  return out;
}

const ir::Instruction& last(const ir::Function& f, ir::BlockId b) { return f.block(b).instructions.back(); }

}  // namespace

TEST_CASE("if becomes an If whose merge input carries the value") {
  ir::Module m = lv_compile("(vec4 (if (< (.x (frag-coord)) 1) 2 3) 0 0 1)");
  const ir::Function& f = main_function(m);
  const auto ifs = find(f, Opcode::If);
  REQUIRE(ifs.size() == 1);
  const ir::Block& b = f.block(ifs[0].block);
  const ir::Instruction& t = last(f, b.if_true());
  const ir::Instruction& e = last(f, b.if_false());
  CHECK(t.opcode == Opcode::Merge);
  CHECK(e.opcode == Opcode::Merge);
  CHECK(t.operands[0] == ir::Operand(m.float_constant(2)));
  CHECK(e.operands[0] == ir::Operand(m.float_constant(3)));
  const ir::RegisterId input = f.block(b.merge).merge_input;
  REQUIRE(input.valid());
  CHECK(m.reg(input).type == ir::predefined::kFloat);
  // The merge block builds the output from the input.
  const ir::Instruction& construct = f.block(b.merge).instructions.front();
  CHECK(construct.opcode == Opcode::ConstructVectorFromMultiple);
  CHECK(construct.operands[0] == ir::Operand(input));
}

lambdav::CompileOptions general_loops() {
  lambdav::CompileOptions o = lv_options();
  o.loop_exit_in_header = false;
  return o;
}

TEST_CASE("a rec-func becomes a Loop over Function-storage variables (general form)") {
  const ir::Module m = lv_compile(
      "(vec4 ((rec-func (n acc) (if (eq n 0) acc (rec (- n 1) (+ acc n)))) (.x (frag-coord)) 0) 0 0 1)",
      general_loops());
  const ir::Function& f = main_function(m);
  const auto loops = find(f, Opcode::Loop);
  REQUIRE(loops.size() == 1);
  const ir::Block& entry = f.block(loops[0].block);
  // One variable per parameter, declared before the loop and stored there.
  REQUIRE(entry.declarations.size() == 2);
  for (ir::VariableId v : entry.declarations)
    CHECK(m.type(m.variable(v).type).storage == ir::StorageClass::Function);
  const auto& ins = entry.instructions;
  REQUIRE(ins.size() >= 3);
  CHECK(ins[ins.size() - 3].opcode == Opcode::Store);
  CHECK(ins[ins.size() - 3].operands[0] == ir::Operand(entry.declarations[0]));
  CHECK(ins[ins.size() - 2].opcode == Opcode::Store);
  CHECK(ins[ins.size() - 2].operands[0] == ir::Operand(entry.declarations[1]));
  // The condition is LoopIf true: the loop is left only by Break value.
  const ir::Block& cond = f.block(entry.loop_condition());
  REQUIRE(cond.instructions.size() == 1);
  CHECK(cond.instructions[0].opcode == Opcode::LoopIf);
  CHECK(cond.instructions[0].operands[0] == ir::Operand(ir::predefined::kTrue));
  CHECK_FALSE(entry.loop_continue().valid());
  // The body loads the parameters first.
  const ir::Block& body = f.block(entry.loop_body());
  CHECK(body.instructions[0].opcode == Opcode::Load);
  CHECK(body.instructions[0].operands[0] == ir::Operand(entry.declarations[0]));
  CHECK(body.instructions[1].opcode == Opcode::Load);
  CHECK(body.instructions[1].operands[0] == ir::Operand(entry.declarations[1]));
  // The loop's value is its merge block's input.
  const ir::RegisterId result = f.block(entry.merge).merge_input;
  REQUIRE(result.valid());
  CHECK(m.reg(result).type == ir::predefined::kFloat);
  // The tail If: a Break with the value, a Continue after storing both.
  const ir::Block& tail_if = body;
  REQUIRE(tail_if.terminator_opcode() == Opcode::If);
  CHECK(last(f, tail_if.if_true()).opcode == Opcode::Break);
  CHECK(last(f, tail_if.if_true()).operands[0] == ir::Operand(ir::RegisterId(body.instructions[1].result)));
  const ir::Block& recur = f.block(tail_if.if_false());
  REQUIRE(recur.instructions.size() >= 3);
  CHECK(recur.instructions.back().opcode == Opcode::Continue);
  CHECK(recur.instructions[recur.instructions.size() - 3].opcode == Opcode::Store);
  CHECK(recur.instructions[recur.instructions.size() - 2].opcode == Opcode::Store);
  // Nothing reaches the tail If's merge block.
  CHECK(last(f, tail_if.merge).opcode == Opcode::Unreachable);
}

TEST_CASE("rec computes every new value before storing any") {
  for (const bool header : {true, false}) {
    lambdav::CompileOptions o = lv_options();
    o.loop_exit_in_header = header;
    const ir::Module m = lv_compile("(vec4 ((rec-func (a b) (if (eq b 0) a (rec b (mod a b)))) 12 18) 0 0 1)", o);
    const ir::Function& f = main_function(m);
    const auto continues = find(f, Opcode::Continue);
    REQUIRE(continues.size() == 1);
    const auto& ins = f.block(continues[0].block).instructions;
    // ..., Mod, Store a, Store b, Continue: the Mod (reading a and b) precedes both stores.
    REQUIRE(ins.size() >= 4);
    const std::size_t n = ins.size();
    CHECK(ins[n - 4].opcode == Opcode::Mod);
    CHECK(ins[n - 3].opcode == Opcode::Store);
    CHECK(ins[n - 2].opcode == Opcode::Store);
    CHECK(evaluate(m, {}).at(0).at(0) == 6.0f);
  }
}

TEST_CASE("a rec-func of the form (if c E (rec ..)) tests c as its loop condition") {
  const ir::Module m = lv_compile(
      "(vec4 ((rec-func (n acc) (if (eq n 0) acc (rec (- n 1) (+ acc n)))) (.x (frag-coord)) 0) 0 0 1)");
  const ir::Function& f = main_function(m);
  const auto loops = find(f, Opcode::Loop);
  REQUIRE(loops.size() == 1);
  const ir::Block& entry = f.block(loops[0].block);
  // The condition loads n, compares, and stays in the loop while not equal.
  const ir::Block& cond = f.block(entry.loop_condition());
  REQUIRE(cond.instructions.size() >= 2);
  const ir::Instruction& loop_if = cond.instructions.back();
  CHECK(loop_if.opcode == Opcode::LoopIf);
  REQUIRE(loop_if.operands[0].is_register());
  const auto& ci = cond.instructions;
  // (eq n 0) in the then-position of the exit: the loop goes on while n != 0.
  CHECK(ci[ci.size() - 2].opcode == Opcode::NotEqual);
  CHECK(ci[ci.size() - 2].result == loop_if.operands[0].as_register());
  CHECK(find(f, Opcode::Break).empty());
  CHECK(find(f, Opcode::If).empty());
  // The body only steps: loads, arithmetic, two stores, Continue.
  const ir::Block& body = f.block(entry.loop_body());
  CHECK(body.instructions.back().opcode == Opcode::Continue);
  // The value is computed after the loop from the variables: no merge input.
  const ir::Block& merge = f.block(entry.merge);
  CHECK_FALSE(merge.merge_input.valid());
  CHECK(merge.instructions.front().opcode == Opcode::Load);
  for (float x : {0.0f, 1.0f, 4.0f, 10.0f}) {
    EvalInputs in;
    in.frag_coord = {x, 0, 0, 1};
    CHECK(evaluate(m, in).at(0).at(0) == x * (x + 1) / 2);
  }
}

TEST_CASE("the header form computes a let in each part that uses it, and the condition stores nothing") {
  // A block sees only its ancestors' values, so the condition, the step and
  // the value each compute `m`; nothing is stored in the condition (a
  // statement there would make GLSL output write the loop as
  // for (;;) { ...; if (!c) break; }). `add`, bound to a function, is lowered
  // where it is used.
  const char* source =
      "(vec4 ((rec-func (n acc) (let ((m (* n 2)) (add (func (a b) (+ a b)))) "
      "  (if (> m 9) (add acc m) (rec (+ n 1) (add acc m))))) (.x (frag-coord)) 0) 0 0 1)";
  const ir::Module m = lv_compile(source);
  const ir::Module g = lv_compile(source, general_loops());
  const ir::Function& f = main_function(m);
  REQUIRE(find(f, Opcode::Loop).size() == 1);
  CHECK(find(f, Opcode::Break).empty());
  CHECK(count_opcode(m, Opcode::Mul) == 3);
  const ir::Block& loop = f.block(find(f, Opcode::Loop)[0].block);
  for (const ir::Instruction& i : f.block(loop.loop_condition()).instructions) CHECK(i.opcode != Opcode::Store);
  for (float x : {0.0f, 3.0f, 5.0f, 7.0f}) {
    EvalInputs in;
    in.frag_coord = {x, 0, 0, 1};
    float n = x, acc = 0;
    while (!(n * 2 > 9)) acc += n * 2, n += 1;
    CHECK(evaluate(m, in).at(0).at(0) == acc + n * 2);
    CHECK(evaluate(g, in).at(0).at(0) == acc + n * 2);
  }
}

TEST_CASE("a step with several recs keeps the header form") {
  const ir::Module m = lv_compile(
      "(vec4 ((rec-func (n) (if (> n 5) n (if (> n 2) (rec (+ n 2)) (rec (+ n 1))))) (.x (frag-coord))) 0 0 1)");
  const ir::Function& f = main_function(m);
  CHECK(find(f, Opcode::Break).empty());
  CHECK(find(f, Opcode::Continue).size() == 2);
  for (float x : {0.0f, 3.0f, 6.0f}) {
    EvalInputs in;
    in.frag_coord = {x, 0, 0, 1};
    float n = x;
    while (!(n > 5)) n += n > 2 ? 2 : 1;
    CHECK(evaluate(m, in).at(0).at(0) == n);
  }
}

TEST_CASE("each part of a header-form loop computes only the lets it uses") {
  // `unused` is needed by no part; `d` only by the step.
  const ir::Module m = lv_compile(
      "(vec4 ((rec-func (n acc) (let ((unused (sin n)) (d (* n 2))) (if (eq n 0) acc (rec (- n 1) (+ acc d))))) 4 0) 0 0 1)");
  CHECK(count_opcode(m, Opcode::Sin) == 0);
  CHECK(count_opcode(m, Opcode::Mul) == 1);
  CHECK(evaluate(m, {}).at(0).at(0) == 20.0f);
}

TEST_CASE("rec-funcs with several exits keep the general form") {
  // A second exit in the step; a rec reached through a helper function; a
  // rec passed through a let: each is left by Break value.
  for (const char* source : {
           "(vec4 ((rec-func (n) (if (> n 5) n (if (> n 2) (rec (+ n 2)) 7))) (.x (frag-coord))) 0 0 1)",
           "(vec4 ((rec-func (n) (let ((k (func (y) (rec y)))) (if (> n 5) n (k (+ n 1))))) (.x (frag-coord))) 0 0 1)",
           "(vec4 ((rec-func (n) (if (> n 5) (if (> n 7) 1 2) (let ((r rec)) (r (+ n 1))))) (.x (frag-coord))) 0 0 1)",
       }) {
    const ir::Module m = lv_compile(source);
    CHECK_FALSE(find(main_function(m), Opcode::Break).empty());
  }
}

TEST_CASE("an if in tail position with two value branches breaks in each (general form)") {
  const ir::Module m = lv_compile(
      "(vec4 ((rec-func (n) (if (> n 5) (if (> n 7) 1 2) (rec (+ n 1)))) (.x (frag-coord))) 0 0 1)",
      general_loops());
  const ir::Function& f = main_function(m);
  CHECK(find(f, Opcode::Break).size() == 2);
  CHECK(find(f, Opcode::Continue).size() == 1);
  CHECK(find(f, Opcode::Merge).empty());
  CHECK(find(f, Opcode::Unreachable).size() == 2);
  for (float x : {0.0f, 6.0f, 9.0f}) {
    EvalInputs in;
    in.frag_coord = {x, 0, 0, 1};
    float n = x;
    while (!(n > 5)) n += 1;
    CHECK(evaluate(m, in).at(0).at(0) == (n > 7 ? 1.0f : 2.0f));
  }
}

TEST_CASE("constants come from the deduplicating tables") {
  const ir::Module m = lv_compile("(output 0 (vec4 1 2 3 4)) (output 1 (vec4 1 2 3 4)) (output 2 (vec2 0 1))");
  const ir::Function& f = main_function(m);
  const auto stores = find(f, Opcode::Store);
  REQUIRE(stores.size() == 3);
  const auto& ins = f.block(stores[0].block).instructions;
  CHECK(ins[stores[0].index].operands[1] == ins[stores[1].index].operands[1]);
  REQUIRE(ins[stores[0].index].operands[1].is_constant());
  // One vec4 constant; the 0 and 1 are the predefined constants.
  std::size_t vec4_constants = 0;
  for (std::uint32_t i = 0; i < m.constant_count(); ++i)
    vec4_constants += m.constant(ir::ConstantId(i)).type == ir::predefined::kVec4;
  CHECK(vec4_constants == 1);
  const ir::Constant& v2 = m.constant(ins[stores[2].index].operands[1].as_constant());
  CHECK(v2.components == std::vector<ir::ConstantId>{ir::predefined::kFloatZero, ir::predefined::kFloatOne});
  CHECK(instruction_count(m) == 4);  // three stores and the return
}

TEST_CASE("the shader interface: outputs, frag-coord, main") {
  const ir::Module m = lv_compile("(output 3 (.xy (frag-coord))) (output 0 1)");
  CHECK(m.shader().stage == ir::ShaderStage::Fragment);
  const ir::Function& f = main_function(m);
  CHECK(f.name.text == "main");
  CHECK(f.return_type == ir::predefined::kVoid);
  CHECK(f.params.empty());
  CHECK(last(f, f.entry).opcode == Opcode::Return);
  int outputs = 0, inputs = 0;
  for (ir::VariableId g : m.globals()) {
    const ir::Variable& v = m.variable(g);
    const ir::Type& ptr = m.type(v.type);
    if (ptr.storage == ir::StorageClass::Output) {
      ++outputs;
      CHECK(v.name.source == ir::NameSource::Interface);
      CHECK(v.name.text == "out" + std::to_string(*v.decorations.location));
      CHECK(ptr.element == (*v.decorations.location == 3 ? ir::predefined::kVec2 : ir::predefined::kFloat));
    } else {
      ++inputs;
      CHECK(ptr.storage == ir::StorageClass::Input);
      CHECK(v.decorations.built_in == "FragCoord");
      CHECK(ptr.element == ir::predefined::kVec4);
    }
  }
  CHECK(outputs == 2);
  CHECK(inputs == 1);
}

TEST_CASE("comparisons pick whole or component-wise opcodes") {
  CHECK(count_opcode(lv_compile("(vec4 (if (eq (.x (frag-coord)) 1) 1 0))"), Opcode::Equal) == 1);
  CHECK(count_opcode(lv_compile("(vec4 (if (neq (.x (frag-coord)) 1) 1 0))"), Opcode::NotEqual) == 1);
  CHECK(count_opcode(lv_compile("(vec4 (if (all-of (eq (frag-coord) (vec4 1))) 1 0))"), Opcode::EqualComponentwise) ==
        1);
  CHECK(count_opcode(lv_compile("(vec4 (if (any-of (neq (frag-coord) 1)) 1 0))"), Opcode::NotEqualComponentwise) ==
        1);
}

TEST_CASE("scalars are broadcast with ConstructVectorFromScalar, except for *") {
  const ir::Module add = lv_compile("(+ (frag-coord) (.x (frag-coord)))");
  CHECK(count_opcode(add, Opcode::ConstructVectorFromScalar) == 1);
  CHECK(count_opcode(add, Opcode::Add) == 1);
  const ir::Module mul = lv_compile("(* (.x (frag-coord)) (frag-coord))");
  CHECK(count_opcode(mul, Opcode::ConstructVectorFromScalar) == 0);
  CHECK(count_opcode(mul, Opcode::VectorTimesScalar) == 1);
  // A constant scalar is broadcast into a constant.
  const ir::Module c = lv_compile("(+ (frag-coord) 2)");
  CHECK(count_opcode(c, Opcode::ConstructVectorFromScalar) == 0);
}

TEST_CASE("and / or become Ifs with a Bool merge input") {
  const ir::Module m = lv_compile("(vec4 (if (or (< (.x (frag-coord)) 1) (< (.y (frag-coord)) 1)) 1 0))");
  const ir::Function& f = main_function(m);
  const auto ifs = find(f, Opcode::If);
  REQUIRE(ifs.size() == 2);
  const ir::Block& first = f.block(ifs[0].block);
  // `or`: the true branch merges true without evaluating the second operand.
  CHECK(last(f, first.if_true()).operands[0] == ir::Operand(ir::predefined::kTrue));
  CHECK(f.block(first.if_true()).instructions.size() == 1);
  CHECK(m.reg(f.block(first.merge).merge_input).type == ir::predefined::kBool);
}

TEST_CASE("closed first-order applications become IR functions") {
  const ir::Module m = lv_compile(
      "(define sq (func (x) (* x x)))\n"
      "(vec4 (sq (.x (frag-coord))) (sq (.y (frag-coord))) (sq (.zw (frag-coord))))");
  // One function per argument type: sq(Num) and sq(Vec(2, f)).
  REQUIRE(m.function_count() == 3);
  CHECK(count_opcode(m, Opcode::Call) == 3);
  CHECK(count_opcode(m, Opcode::Mul) == 2);
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) names.push_back(m.function(ir::FunctionId(i)).name.text);
  CHECK(names == std::vector<std::string>{"main", "sq", "sq_1"});
  EvalInputs in;
  in.frag_coord = {2, 3, 4, 5};
  CHECK(evaluate(m, in).at(0) == std::vector<float>{4, 9, 16, 25});
}

TEST_CASE("a user function named main does not clash with the entry point") {
  const ir::Module m = lv_compile("(define main (func (x) (* x 2))) (vec4 (main (.x (frag-coord))) 0 0 1)");
  REQUIRE(m.function_count() == 2);
  CHECK(m.function(ir::FunctionId(1)).name.text == "main_1");
  CHECK(m.entry_point() == ir::FunctionId(0));
}

TEST_CASE("higher-order applications and functions capturing run-time values are inlined") {
  // twice takes a function: inlined. Its result closes over f = inc, which
  // is closed: that application becomes a function.
  const ir::Module hof = lv_compile(
      "(define twice (func (f x) (f (f x))))\n"
      "(define k (.x (frag-coord)))\n"
      "(define addk (func (x) (+ x k)))\n"
      "(vec4 (twice addk 1) 0 0 1)");
  CHECK(hof.function_count() == 1);
  CHECK(count_opcode(hof, Opcode::Add) == 2);
  EvalInputs in;
  in.frag_coord = {5, 0, 0, 1};
  CHECK(evaluate(hof, in).at(0).at(0) == 11.0f);
  // Turned off by the option: everything is inlined.
  auto options = lv_options();
  options.ir_functions = false;
  const ir::Module inlined = lv_compile("(define sq (func (x) (* x x))) (vec4 (sq 2) (sq 3) 0 1)", options);
  CHECK(inlined.function_count() == 1);
  CHECK(count_opcode(inlined, Opcode::Mul) == 2);
}

TEST_CASE("instructions carry their source positions") {
  const ir::Module m = lv_compile("(define v (frag-coord))\n(vec4 (sin (.x v)) 0 0 1)");
  const ir::Function& f = main_function(m);
  const auto sins = find(f, Opcode::Sin);
  REQUIRE(sins.size() == 1);
  const ir::Instruction& sin = f.block(sins[0].block).instructions[sins[0].index];
  REQUIRE(sin.location.valid());
  CHECK(m.location(sin.location).line == 2);
  CHECK(m.location(sin.location).column == 7);
  CHECK(m.source_files().at(m.location(sin.location).file) == "test.lv");
}
