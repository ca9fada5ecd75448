// Per-instruction rules: ids in range, operand kinds and counts, and result
// types that agree with the opcode's type rule. Every test builds a valid
// module, checks it validates, then breaks one rule.
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

// main: r0 = Load scale; r1 = Add r0 r0; color = vec4(r1); return.
struct Sum {
  RegisterId loaded, sum;
  Instruction& add;
};
Sum build_sum(ShaderFixture& s) {
  RegisterId loaded = s.load_scale();
  RegisterId sum = must(s.b.emit(Opcode::Add, {loaded, loaded}));
  s.store_color(sum);
  s.end(Opcode::Return);
  return Sum{loaded, sum, s.entry().instructions[1]};
}

}  // namespace

TEST_CASE("ids: every operand refers to an existing entity", "[validator][ids]") {
  ShaderFixture s;
  Sum sum = build_sum(s);
  require_valid(s.m);
  SECTION("register") {
    sum.add.operands[1] = RegisterId(5000);
    auto p = require_only_problem(s.m, "operand 1: r5000 does not exist");
    CHECK(p.instruction == 1);
  }
  SECTION("constant") {
    sum.add.operands[1] = ConstantId(5000);
    require_only_problem(s.m, "operand 1: c5000 does not exist");
  }
  SECTION("variable") {
    s.entry().instructions[0].operands[0] = VariableId(5000);
    require_only_problem(s.m, "operand 0: v5000 does not exist");
  }
  SECTION("function") {
    sum.add.opcode = Opcode::Call;
    sum.add.operands.assign({Operand(FunctionId(7))});
    require_only_problem(s.m, "operand 0: f7 does not exist");
  }
  SECTION("result") {
    sum.add.result = RegisterId(5000);
    // The store's constructor still reads r1, which is now defined nowhere.
    auto problems = validator::validate(s.m);
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].message == "result r5000 does not exist");
    CHECK(problems[1].message == fmt::format("r{} is used but never defined", sum.sum.index()));
  }
}

TEST_CASE("types: the result register has the type the opcode gives", "[validator][types]") {
  ShaderFixture s;
  RegisterId loaded = s.load_scale();
  RegisterId sum = must(s.b.emit(Opcode::Add, {loaded, loaded}));  // value unused
  s.store_color(loaded);
  s.end(Opcode::Return);
  require_valid(s.m);
  s.m.reg(sum).type = kInt;
  auto p = require_only_problem(s.m, fmt::format("result r{} has type int, but Add gives float", sum.index()));
  CHECK(p.instruction == 1);
}

TEST_CASE("types: operands agree with the opcode", "[validator][types]") {
  ShaderFixture s;
  Sum sum = build_sum(s);
  require_valid(s.m);
  sum.add.operands[1] = kIntOne;
  require_only_problem(s.m, "Add: operand types differ: float and int");
}

TEST_CASE("types: constructors are checked against their result type", "[validator][types]") {
  ShaderFixture s;
  build_sum(s);
  require_valid(s.m);
  Instruction& construct = s.entry().instructions[2];  // ConstructVectorFromScalar (t7) r1
  REQUIRE(construct.opcode == Opcode::ConstructVectorFromScalar);
  construct.operands[0] = kIntOne;
  require_only_problem(s.m, "ConstructVectorFromScalar: needs a scalar of the vector's component type");
}

TEST_CASE("types: instructions without a value have no result", "[validator][types]") {
  ShaderFixture s;
  build_sum(s);
  require_valid(s.m);
  Instruction& store = s.entry().instructions[3];
  REQUIRE(store.opcode == Opcode::Store);
  const RegisterId r = s.m.new_register(kFloat);
  store.result = r;
  require_only_problem(s.m, fmt::format("Store gives no value, but has result r{}", r.index()));
}

TEST_CASE("types: instructions with a value have a result", "[validator][types]") {
  ShaderFixture s;
  RegisterId loaded = s.load_scale();
  must(s.b.emit(Opcode::Negate, {loaded}));  // value unused
  s.end(Opcode::Return);
  require_valid(s.m);
  s.entry().instructions[1].result = RegisterId{};
  require_only_problem(s.m, "Negate gives a value of type float, but has no result register");
}

TEST_CASE("operands: literals only as component indices, functions only as callees", "[validator][ids]") {
  ShaderFixture s;
  Sum sum = build_sum(s);
  require_valid(s.m);
  SECTION("literal") {
    sum.add.operands[0] = Operand::literal(1);
    require_only_problem(s.m, "operand 0 of Add is a literal, not a value");
  }
  SECTION("function") {
    sum.add.operands[0] = s.main;
    require_only_problem(s.m, "operand 0 of Add is a function; only Call's operand 0 names a function");
  }
}

TEST_CASE("operands: counts follow the opcode table", "[validator][ids]") {
  ShaderFixture s;
  Sum sum = build_sum(s);
  require_valid(s.m);
  SECTION("too many") {
    sum.add.operands.push_back(sum.loaded);
    require_only_problem(s.m, "Add takes 2 operands, 3 given");
  }
  SECTION("terminator") {
    s.entry().instructions.back().operands.assign({Operand(kFloatOne), Operand(kFloatOne)});
    require_only_problem(s.m, "Return takes 0 to 1 operands, 2 given");
  }
}

TEST_CASE("opcodes: unknown opcodes and stray flags", "[validator][ids]") {
  ShaderFixture s;
  Sum sum = build_sum(s);
  require_valid(s.m);
  SECTION("opcode past the table") {
    sum.add.opcode = static_cast<Opcode>(60000);
    auto problems = validator::validate(s.m);
    REQUIRE(!problems.empty());
    CHECK(problems[0].message == "unknown opcode 60000");
    CHECK(validator::describe(s.m, problems[0]).find("`<opcode 60000>`") != std::string::npos);
  }
  SECTION("aux flags on a non-Texture instruction") {
    sum.add.aux = 4;
    require_only_problem(s.m, "Add has aux flags 0x4; only Texture has flags");
  }
}
