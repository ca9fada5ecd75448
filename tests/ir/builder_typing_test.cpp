// The builder infers result types from the operands and turns ill-typed
// operands and misplaced instructions into error values.
#include <catch2/catch.hpp>

#include "angle_example.h"
#include "ir/builder.h"
#include "ir/typing.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::must;

namespace {

// A fragment shader with main() open and a few typed values to combine.
struct Fixture {
  Module m;
  Builder b{m};
  VariableId color, uv, local;
  RegisterId v4, v2, f, i, m4;

  Fixture() {
    color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::Medium);
    uv = b.add_global({"uv", NameSource::Interface}, kVec2, StorageClass::Input, Precision::High);
    const VariableId mvp = b.add_global({"mvp", NameSource::Interface}, kMat4, StorageClass::Uniform);
    b.begin_function({"main", NameSource::Internal}, kVoid);
    local = b.declare_local({"f", NameSource::Temporary}, kFloat, Precision::Low, kFloatOne);
    v2 = must(b.load(uv));
    v4 = must(b.construct(Opcode::ConstructVectorFromScalar, kVec4, {kFloatOne}));
    f = must(b.load(local));
    i = must(b.construct(Opcode::ConstructScalarFromScalar, kInt, {f}));
    m4 = must(b.load(mvp));
  }
  TypeId type(RegisterId r) const { return m.reg(r).type; }
};

}  // namespace

TEST_CASE("well-typed instructions get the inferred result type") {
  Fixture t;
  CHECK(t.type(t.v2) == kVec2);
  CHECK(t.type(must(t.b.emit(Opcode::Add, {t.v4, t.v4}))) == kVec4);
  CHECK(t.type(must(t.b.emit(Opcode::LessThan, {t.v2, t.v2}))) == kBVec2);
  CHECK(t.type(must(t.b.emit(Opcode::LessThan, {t.f, kFloatZero}))) == kBool);
  CHECK(t.type(must(t.b.emit(Opcode::Equal, {t.v4, t.v4}))) == kBool);
  CHECK(t.type(must(t.b.emit(Opcode::Dot, {t.v4, t.v4}))) == kFloat);
  CHECK(t.type(must(t.b.emit(Opcode::MatrixTimesVector, {t.m4, t.v4}))) == kVec4);
  CHECK(t.type(must(t.b.emit(Opcode::VectorTimesScalar, {t.v2, t.f}))) == kVec2);
  CHECK(t.type(must(t.b.emit(Opcode::Transpose, {t.m4}))) == kMat4);
  CHECK(t.type(must(t.b.emit(Opcode::IsNan, {t.v2}))) == kBVec2);
  CHECK(t.type(must(t.b.emit(Opcode::ExtractVectorComponentMulti,
                             {t.v4, Operand::literal(3), Operand::literal(0), Operand::literal(1)}))) == kVec3);
  // Store and other instructions without a value give no register.
  CHECK_FALSE(must(t.b.store(t.color, t.v4)).valid());
}

TEST_CASE("Access* results are pointers in the base's storage class and Load gives the pointee") {
  Fixture t;
  const RegisterId x = must(t.b.emit(Opcode::AccessVectorComponent, {t.color, Operand::literal(0)}));
  CHECK(t.type(x) == t.m.pointer_type(kFloat, StorageClass::Output));
  const RegisterId yx = must(
      t.b.emit(Opcode::AccessVectorComponentMulti, {t.uv, Operand::literal(1), Operand::literal(0)}));
  CHECK(t.type(yx) == t.m.pointer_type(kVec2, StorageClass::Input));
  const RegisterId local_x = must(t.b.load(t.local));
  CHECK(t.type(local_x) == kFloat);
  CHECK(t.type(must(t.b.load(x))) == kFloat);
  // Precision follows the operands: the Input's highp.
  CHECK(t.m.reg(must(t.b.load(yx))).precision == Precision::High);
}

TEST_CASE("Call gives the callee's return type") {
  Module m;
  Builder b(m);
  const FunctionId square = b.begin_function({"square", NameSource::Internal}, kFloat, Precision::High);
  const VariableId x = b.add_parameter(square, {"x", NameSource::Temporary}, kFloat, ParamDirection::In);
  const RegisterId xv = must(b.load(x));
  must(b.terminate(Opcode::Return, must(b.emit(Opcode::Mul, {xv, xv}))));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  CHECK(m.reg(must(b.emit(Opcode::Call, {square, kFloatOne}))).type == kFloat);
  // Wrong argument types and counts are errors too.
  auto wrong = b.emit(Opcode::Call, {square, kIntOne});
  REQUIRE_FALSE(wrong.ok());
  CHECK_THAT(wrong.error(), Catch::Contains("int") && Catch::Contains("float"));
  CHECK_FALSE(b.emit(Opcode::Call, {square}).ok());
}

TEST_CASE("ill-typed instructions are error values naming both types") {
  Fixture t;
  const std::size_t registers = t.m.register_count();
  auto add = t.b.emit(Opcode::Add, {t.v4, t.f});
  REQUIRE_FALSE(add.ok());
  CHECK_THAT(add.error(), Catch::Contains("Add") && Catch::Contains("vec4") && Catch::Contains("float"));
  auto mul = t.b.emit(Opcode::MatrixTimesVector, {t.m4, t.v2});
  REQUIRE_FALSE(mul.ok());
  CHECK_THAT(mul.error(), Catch::Contains("mat4") && Catch::Contains("vec2"));
  auto store = t.b.store(t.color, t.v2);
  REQUIRE_FALSE(store.ok());
  CHECK_THAT(store.error(), Catch::Contains("vec2") && Catch::Contains("vec4"));
  auto less = t.b.emit(Opcode::LessThan, {t.i, t.f});
  REQUIRE_FALSE(less.ok());
  CHECK_THAT(less.error(), Catch::Contains("int") && Catch::Contains("float"));
  CHECK_FALSE(t.b.emit(Opcode::Load, {t.v4}).ok());                        // not a pointer
  CHECK_FALSE(t.b.emit(Opcode::Add, {t.v4}).ok());                         // operand count
  CHECK_FALSE(t.b.emit(Opcode::Add, {t.v4, RegisterId(100000)}).ok());     // no such register
  CHECK_FALSE(t.b.construct(Opcode::ConstructVectorFromMultiple, kVec4, {t.v2, t.f}).ok());  // 3 of 4
  // A failed instruction leaves nothing behind.
  CHECK(t.m.register_count() == registers);
}

TEST_CASE("terminating twice, and emitting after a terminator, fail") {
  Fixture t;
  const std::size_t instructions = t.b.current_block().instructions.size();
  REQUIRE(must(t.b.terminate(Opcode::Return)));
  auto again = t.b.terminate(Opcode::Return);
  REQUIRE_FALSE(again.ok());
  CHECK_THAT(again.error(), Catch::Contains("terminated"));
  auto after = t.b.emit(Opcode::Add, {t.v4, t.v4});
  REQUIRE_FALSE(after.ok());
  CHECK_THAT(after.error(), Catch::Contains("terminated"));
  CHECK_FALSE(t.b.branch_if(kTrue).ok());
  CHECK_FALSE(t.b.next_block().ok());
  CHECK(t.b.current_block().instructions.size() == instructions + 1);
}

TEST_CASE("terminators go through terminate() or branch_*(), with checked operands") {
  Fixture t;
  auto as_emit = t.b.emit(Opcode::Return, {});
  REQUIRE_FALSE(as_emit.ok());
  CHECK_THAT(as_emit.error(), Catch::Contains("terminator"));
  CHECK_FALSE(t.b.terminate(Opcode::If, kTrue).ok());
  CHECK_FALSE(t.b.terminate(Opcode::LoopIf, t.f).ok());   // not a bool
  CHECK_FALSE(t.b.branch_if(t.f).ok());                   // not a bool
  const SwitchCase cases[] = {{1u}};
  CHECK_FALSE(t.b.branch_switch(t.f, cases).ok());        // not an int
  CHECK(t.b.branch_switch(t.i, cases).ok());
}

TEST_CASE("check_result_type leaves the module as it is: infer_result_type interns what it derived") {
  Module m;
  Builder b(m);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  const VariableId v = b.declare_local({"v", NameSource::Temporary}, kVec4);
  // A swizzle pointer `v.xy`: ptr<Function, vec2>, which the module lacks.
  const Operand ops[] = {v, Operand::literal(0), Operand::literal(1)};
  const Type want = Type::make_pointer(kVec2, StorageClass::Function);
  REQUIRE_FALSE(m.find_type(want));
  const std::size_t types = m.type_count();
  auto checked = check_result_type(m, Opcode::AccessVectorComponentMulti, 0, ops);
  REQUIRE(checked);
  CHECK(m.type_count() == types);
  CHECK(checked->type.index() >= types);
  REQUIRE(checked->missing.size() == 1);
  CHECK(checked->missing[0] == want);
  auto interned = infer_result_type(m, Opcode::AccessVectorComponentMulti, 0, ops);
  REQUIRE(interned);
  CHECK(m.type_count() == types + 1);
  CHECK(m.find_type(want) == *interned);
  CHECK(describe_type(m, checked->type, checked->missing) == describe_type(m, *interned));
  // Now the module has it: the check finds it and derives nothing new.
  auto again = check_result_type(m, Opcode::AccessVectorComponentMulti, 0, ops);
  REQUIRE(again);
  CHECK(again->type == *interned);
  CHECK(again->missing.empty());
}

TEST_CASE("a new result's precision: given, else the operands' highest, never on bools") {
  Fixture fx;
  const Operand low_and_high[] = {fx.f, Operand(fx.v2)};  // lowp f, highp uv
  CHECK(result_precision(fx.m, kFloat, low_and_high) == Precision::High);
  CHECK(result_precision(fx.m, kFloat, low_and_high, Precision::Medium) == Precision::Medium);
  CHECK(result_precision(fx.m, kBool, low_and_high, Precision::Medium) == Precision::None);
  const Operand constants[] = {Operand(kFloatOne)};
  CHECK(result_precision(fx.m, kFloat, constants) == Precision::None);
}

TEST_CASE("operand roles give what the outputs and passes derive from them") {
  // Every opcode's name leads back to it: kOpcodeCount counts the table.
  for (std::size_t k = 0; k < kOpcodeCount; ++k) CHECK(opcode_from_name(name(static_cast<Opcode>(k))) == static_cast<Opcode>(k));
  std::vector<Opcode> out_pointers, increments, literals, callees;
  for (std::size_t k = 0; k < kOpcodeCount; ++k) {
    const Opcode op = static_cast<Opcode>(k);
    const OpcodeInfo& oi = info(op);
    for (std::size_t i = 0; i < oi.roles.size(); ++i) {
      const OperandRole role = operand_role(op, i);
      if (role == OperandRole::OutPointer && (out_pointers.empty() || out_pointers.back() != op)) out_pointers.push_back(op);
      if (role == OperandRole::Literal && (literals.empty() || literals.back() != op)) literals.push_back(op);
      if (role == OperandRole::Callee) callees.push_back(op);
      // A role that reads or writes through a pointer belongs to an opcode
      // whose typing takes a pointer there.
      if (reads_through(role) || writes_through(role)) CHECK(oi.has_side_effects == (op != Opcode::Load));
    }
    if (is_increment(op)) increments.push_back(op);
  }
  CHECK(out_pointers == std::vector<Opcode>{Opcode::Modf, Opcode::Frexp, Opcode::UaddCarry, Opcode::UsubBorrow,
                                            Opcode::UmulExtended, Opcode::ImulExtended});
  CHECK(increments == std::vector<Opcode>{Opcode::PostfixIncrement, Opcode::PostfixDecrement, Opcode::PrefixIncrement,
                                          Opcode::PrefixDecrement});
  CHECK(literals == std::vector<Opcode>{Opcode::AccessVectorComponent, Opcode::AccessVectorComponentMulti,
                                        Opcode::AccessStructField, Opcode::ExtractVectorComponent,
                                        Opcode::ExtractVectorComponentMulti, Opcode::ExtractStructField});
  CHECK(callees == std::vector<Opcode>{Opcode::Call});
  // The variadic tail repeats the last role: a swizzle's fourth component,
  // a call's fifth argument.
  CHECK(operand_role(Opcode::ExtractVectorComponentMulti, 4) == OperandRole::Literal);
  CHECK(operand_role(Opcode::Call, 5) == OperandRole::Argument);
}
