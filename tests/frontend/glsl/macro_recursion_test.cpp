// Macros that would make glslang's preprocessor recurse without bound
// (src/frontend/glsl/macro_recursion.h) are refused before glslang reads
// the shader, with the macro's position; the harmless halves of the shape
// (a self-reference, a parenthesis left open without a cycle) compile.
// Each refused shader here overflows glslangValidator's stack (-V and -E);
// through Sluice it took 12–21 GB before this check (docs/testing.md).
#include "frontend/glsl/macro_recursion.h"

#include "glsl_test_util.h"

using namespace sluice;
using sluice::testing::only_error;
using sluice::glsl_in::detail::find_runaway_macro;

namespace {

constexpr std::string_view kHead = "#version 320 es\nprecision highp float;\nlayout(location = 0) out vec4 c;\n";

}  // namespace

TEST_CASE("a macro that opens a call it does not close and expands to itself is refused at its #define") {
  // The fuzzer's shape (GraphicsFuzz's INT_ARR_256 / _GLF_MAKE_IN_BOUNDS_INT
  // macros with the call's closing parenthesis cut off), minimised.
  const std::string source = std::string(kHead) +
                             "#define F(A, B) A\n"
                             "#define ONE F(clamp(ONE, max(ONE, ONE), ONE);\n"
                             "void main() { float a = clamp(ONE, max(ONE, ONE), ONE); c = vec4(a); }\n";
  const glsl_in::Result r = glsl_in::compile(source, "runaway.frag");
  const Diagnostic& d = only_error(r);
  CHECK(d.file == "runaway.frag");
  CHECK(d.line == 5);
  CHECK(d.column == 9);
  CHECK(d.message == "'ONE' : macro expansion recurses without bound: its body leaves a '(' open and it expands to itself");
  CHECK(render(r.diagnostics, source).starts_with("runaway.frag:5:9: error: 'ONE' : macro expansion"));
}

TEST_CASE("the other shapes of the recursion are refused too") {
  struct Case {
    const char* defines;
    const char* name;
    const char* cycle;
  };
  const Case cases[] = {
      // The call's name comes from another macro.
      {"#define CALLF F\n#define F(A, B) A\n#define ONE CALLF(clamp(ONE, max(ONE, ONE), ONE);\n", "ONE", "ONE"},
      // ... or from a function-like macro's expansion.
      {"#define ID(x) x\n#define F(A, B) A\n#define ONE ID(F)(clamp(ONE, max(ONE, ONE), ONE);\n", "ONE", "ONE"},
      // The open call is in a macro that a self-referencing macro expands.
      {"#define F(A, B) A\n#define U F(clamp(ONE, max(ONE, ONE), ONE);\n#define ONE U ONE\n", "U", "U"},
      // Through two macros, and a function-like one calling itself.
      {"#define F(A, B) A\n#define ONE F(clamp(TWO, max(TWO, TWO), TWO);\n#define TWO ONE\n", "ONE", "ONE"},
      {"#define F(A, B) A\n#define ONE(x) F(clamp(ONE(x), max(ONE(x), ONE(x)), ONE(x));\n", "ONE", "ONE"},
      // A line continuation and a comment do not end the #define.
      {"#define F(A, B) A\n#define ONE F(clamp(ONE, /* a\n comment */ max(ONE, ONE), \\\nONE);\n", "ONE", "ONE"},
  };
  for (const Case& c : cases) {
    INFO(c.defines);
    const auto found = find_runaway_macro(c.defines);
    REQUIRE(found.has_value());
    CHECK(found->name == c.name);
    CHECK(found->cycle == c.cycle);
  }
  // A pasted name (`##`) may be any macro's.
  const auto pasted = find_runaway_macro(
      "#define F(A, B) A\n#define CAT(a, b) a##b\n#define ONE F(clamp(CAT(O,NE), max(CAT(O,NE), CAT(O,NE)), CAT(O,NE));\n");
  REQUIRE(pasted.has_value());
  CHECK(pasted->name == "ONE");
  CHECK(pasted->cycle == "ONE");  // through CAT's pasting
  const auto near_paste = find_runaway_macro("#define F(A, B) A\n#define CAT(a, b) a##b\n#define U F(x\n");
  REQUIRE(near_paste.has_value());
  CHECK(near_paste->name == "U");
  CHECK(near_paste->cycle.empty());
  // One reached from a cycle is named with the cycle when no macro on it
  // leaves a parenthesis open.
  const auto near = find_runaway_macro("#define F(A, B) A\n#define U F(x\n#define V U V\n");
  REQUIRE(near.has_value());
  CHECK(near->name == "U");
  CHECK(near->cycle == "V");
  CHECK(near->line == 2);
}

TEST_CASE("a self-reference or an open parenthesis alone compiles") {
  const std::string self = std::string(kHead) +
                           "uniform U { float value; } u;\n"
                           "#define value u.value\n"
                           "#define TWICE(x) (x + x)\n"
                           "void main() { c = vec4(TWICE(TWICE(2.0)) * value); }\n";
  CHECK_FALSE(find_runaway_macro(self).has_value());
  testing::compile_valid(self, "self.frag", testing::automap());

  const std::string open = std::string(kHead) +
                           "#define F(A, B) (A + B)\n"
                           "#define CALL_F F(1.0,\n"
                           "void main() { c = vec4(CALL_F 2.0)); }\n";
  CHECK_FALSE(find_runaway_macro(open).has_value());
  testing::compile_valid(open, "open.frag", testing::automap());

  // Parentheses closed within the body, with a cycle elsewhere.
  CHECK_FALSE(find_runaway_macro("#define A B(1)\n#define B(x) A\n#define C C\n").has_value());
  // `NAME (` with a space is an object-like macro whose body starts with `(`.
  CHECK_FALSE(find_runaway_macro("#define ONE (ONE)\n").has_value());
  CHECK(find_runaway_macro("#define ONE (ONE\n").has_value());
}

TEST_CASE("a -D macro of the shape is refused, naming the command line") {
  glsl_in::Options o = testing::automap();
  o.macros.emplace_back("ONE", "F(ONE, ONE");
  const std::string source = std::string(kHead) + "#define F(A, B) A\nvoid main() { c = vec4(ONE)); }\n";
  const glsl_in::Result r = glsl_in::compile(source, "d.frag", o);
  const Diagnostic& d = only_error(r);
  CHECK(d.line == 0);
  CHECK(d.message.ends_with("it expands to itself (a -D macro)"));
}
