// The test IR interpreter (tests/support) computes with its own arithmetic,
// not with src/transform's folding (its library links sluice_ir only), so a
// differential test can see a folding bug: here a program is run unfolded
// and after fold-constants, and then with the constant a classic wrong fold
// would have produced (a * b + c fused into one rounding, what
// -ffp-contract allows; an int sum saturated instead of wrapped), which the
// interpreter tells apart from the unfolded program.
#include <bit>
#include <climits>
#include <cmath>

#include <catch2/catch.hpp>

#include "ir_interpreter.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using sluice::testing::must;

namespace {

// color = vec4(value): the text of what the interpreter stores, or its error.
std::string color_of(const Module& m) {
  const testing::IrRun run = testing::run_ir(m, {{"v", {0, 0, 0, 0}}});
  return run.ok ? testing::global_text(m, run, "color") : "error: " + run.error;
}

// The same module with the value main stores to `color` replaced by
// vec4(wrong): what a wrong fold would have left.
Module with_stored(const testing::ShaderUnderTest& s, ConstantId wrong) {
  Module m = s.m;
  const ConstantId splat = m.composite_constant(predefined::kVec4, std::vector<ConstantId>(4, wrong));
  for (Block& b : m.function(s.main).blocks)
    for (Instruction& inst : b.instructions)
      if (inst.opcode == Opcode::Store && inst.operands[0] == Operand(s.color)) inst.operands[1] = Operand(splat);
  return m;
}

std::size_t count(const Module& m, FunctionId f, Opcode op) {
  std::size_t n = 0;
  for (const Block& b : m.function(f).blocks)
    for (const Instruction& inst : b.instructions) n += inst.opcode == op;
  return n;
}

}  // namespace

TEST_CASE("the IR interpreter sees a fused multiply-add fold") {
  const float a = 0.1f, b = 10.0f, c = -1.0f;
  testing::ShaderUnderTest s;
  const RegisterId product = must(s.b.emit(Opcode::Mul, {s.m.float_constant(a), s.m.float_constant(b)}));
  s.finish_scalar(must(s.b.emit(Opcode::Add, {product, s.m.float_constant(c)})));
  testing::require_valid(s.m);
  const std::string unfolded = color_of(s.m);
  volatile float rounded_product = a * b;  // two roundings, as GLSL's a * b + c
  const float expected = rounded_product + c;
  CHECK(unfolded == testing::text_of(s.m, predefined::kVec4, std::vector<std::uint32_t>(4, std::bit_cast<std::uint32_t>(expected))));

  testing::ShaderUnderTest folded = s;
  testing::run_passes(folded.m, "fold-constants");
  REQUIRE(count(folded.m, folded.main, Opcode::Mul) == 0);  // it did fold
  CHECK(color_of(folded.m) == unfolded);

  const float fused = std::fma(a, b, c);
  REQUIRE(fused != expected);
  CHECK(color_of(with_stored(folded, folded.m.float_constant(fused))) != unfolded);
}

TEST_CASE("the IR interpreter sees an int fold that saturates instead of wrapping") {
  testing::ShaderUnderTest s;
  const RegisterId sum = must(s.b.emit(Opcode::Add, {s.m.int_constant(INT_MAX), s.m.int_constant(1)}));
  s.finish_scalar(must(s.b.construct(Opcode::ConstructScalarFromScalar, predefined::kFloat, {sum})));
  testing::require_valid(s.m);
  const std::string unfolded = color_of(s.m);
  CHECK(unfolded == color_of(with_stored(s, s.m.float_constant(static_cast<float>(INT_MIN)))));

  testing::ShaderUnderTest folded = s;
  testing::run_passes(folded.m, "fold-constants");
  REQUIRE(count(folded.m, folded.main, Opcode::Add) == 0);
  CHECK(color_of(folded.m) == unfolded);
  CHECK(color_of(with_stored(folded, folded.m.float_constant(static_cast<float>(INT_MAX)))) != unfolded);
}

TEST_CASE("the IR interpreter reports undefined arithmetic instead of computing a value") {
  testing::ShaderUnderTest s;
  const RegisterId quotient = must(s.b.emit(Opcode::Div, {s.m.int_constant(7), s.m.int_constant(0)}));
  s.finish_scalar(must(s.b.construct(Opcode::ConstructScalarFromScalar, predefined::kFloat, {quotient})));
  testing::require_valid(s.m);
  CHECK(color_of(s.m) == "error: Div: undefined: integer division by zero");
}
