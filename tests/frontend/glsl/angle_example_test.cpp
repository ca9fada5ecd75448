// The ANGLE IR README's "Debug Output" shader through the GLSL front end:
// its block structure must be the one the README's dump shows, which
// tests/angle_example.h builds by hand.
#include "angle_example.h"
#include "glsl_test_util.h"
#include "golden_file.h"

using namespace sluice;
using namespace sluice::ir;

namespace {

// The README's shader, verbatim.
constexpr std::string_view kReadmeShader = R"(#version 310 es
precision mediump float;

// Miscellaneous metadata:
layout(early_fragment_tests) in;

// A global interface variable:
out vec4 color;

void main()
{
    // A local variable with initializer:
    vec2 result = vec2(0, 0);

    // A loop with a continue block
    for (int i = 0; i < 10; ++i)
    {
        // Swizzle, constructor and built-in:
        result.yx += vec2(i, exp(float(i)));
    }

    // Ternary operator:
    color = result.x > result.y ? vec4(0, 1, 0, 1) : vec4(1, 0, 0, 1);
}
)";

}  // namespace

TEST_CASE("the ANGLE README shader has the README dump's block structure") {
  // Vulkan needs a location for `color`; auto-mapping gives it 0, as the
  // hand-built module has it.
  const Module m = testing::compile_valid(kReadmeShader, "angle_readme.frag");
  const Module expected = testing::build_angle_example();
  CHECK(testing::shape(m.function(m.entry_point())) == testing::shape(expected.function(expected.entry_point())));
  CHECK(m.shader() == expected.shader());

  // The same variables, with the same names, types, precisions,
  // decorations and initializers.
  REQUIRE(m.variable_count() == expected.variable_count());
  for (std::uint32_t i = 0; i < m.variable_count(); ++i) {
    const Variable& a = m.variable(VariableId(i));
    const Variable& b = expected.variable(VariableId(i));
    INFO("variable v" << i);
    CHECK(a.name == b.name);
    CHECK(a.type == b.type);
    CHECK(a.precision == b.precision);
    CHECK(a.decorations == b.decorations);
    CHECK(a.initializer == b.initializer);
  }
  // The loop variable's increment is the continue block's, and the `?:`
  // result arrives through the If's merge input.
  const Function& main = m.function(m.entry_point());
  const auto increments = testing::find_all(main, Opcode::PrefixIncrement);
  REQUIRE(increments.size() == 1);
  CHECK(increments[0].kind == BlockKind::LoopContinue);
  const auto merges = testing::find_all(main, Opcode::Merge);
  REQUIRE(merges.size() == 2);
  for (const auto& merge : merges) CHECK(merge.instruction->operands.size() == 1);
}

TEST_CASE("the ANGLE README shader's dump") {
  const Module m = testing::compile_valid(kReadmeShader, "angle_readme.frag");
  testing::check_golden("glsl_angle_readme.ir", dump(m));
}
