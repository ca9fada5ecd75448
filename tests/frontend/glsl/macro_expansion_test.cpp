// The bound on macro expansion (src/frontend/glsl/macro_expansion.h): the
// estimate's numbers on small cases worked out by hand, the limits at and
// one past them through the front end, and the shapes that make glslang's
// preprocessor take exponential time (object-like doubling, a function-like
// macro nested in the text, an argument expanded and thrown away, pasting,
// cycles, -D macros and #if conditions) refused before glslang reads them.
#include "frontend/glsl/macro_expansion.h"

#include <fmt/format.h>

#include "glsl_test_util.h"

using namespace sluice;
using sluice::testing::only_error;
using sluice::glsl_in::detail::estimate_macro_expansion;
using sluice::glsl_in::detail::kMaxMacroExpansionTokens;

namespace {

constexpr std::string_view kHead = "#version 450\nlayout(location = 0) out float o;\n";

// `#define A0 x` and `#define Ai (Ai-1+Ai-1)` for i = 1 … levels: Ai makes
// 4·2^i − 3 tokens.
std::string doubling(int levels) {
  std::string s = "#define A0 x\n";
  for (int i = 1; i <= levels; ++i) s += fmt::format("#define A{} (A{}+A{})\n", i, i - 1, i - 1);
  return s;
}

glsl_in::Result compile(const std::string& source, const glsl_in::Options& options = testing::automap()) {
  return glsl_in::compile(source, "expand.frag", options);
}

}  // namespace

TEST_CASE("the estimate counts what each expansion makes and reads") {
  // A use of A3 (29 tokens) replaces one token: it adds 28.
  auto e = estimate_macro_expansion(doubling(3) + "float y = A3;\n");
  CHECK(e.added_tokens == 28);
  CHECK_FALSE(e.over_limit_at_macro.has_value());
  // Each argument is expanded once and each copy rescanned: D(D(D(y)))
  // makes 8 tokens of y.
  e = estimate_macro_expansion("#define D(x) x x\nfloat z = D(D(D(y)));\n");
  CHECK(e.added_tokens == 7);
  // Forwarding arguments does not compound: a wrapper of a wrapper of
  // `((a)+(b))` 30 levels deep still adds 8 tokens plus its arguments.
  std::string wrappers = "#define F0(a, b) ((a)+(b))\n";
  for (int i = 1; i <= 30; ++i) wrappers += fmt::format("#define F{}(a, b) F{}(a, b)\n", i, i - 1);
  e = estimate_macro_expansion(wrappers + "float w = F30(x, y);\n");
  CHECK(e.added_tokens == 8);
  // A cycle: A makes B B, each B makes A A with A busy: 4 tokens.
  e = estimate_macro_expansion("#define A B B\n#define B A A\nint v = A;\n");
  CHECK(e.added_tokens == 3);
  // A self-reference expands once.
  e = estimate_macro_expansion("#define foo (foo)\nint v = foo;\n");
  CHECK(e.added_tokens == 2);
  // No macros, nothing added.
  e = estimate_macro_expansion(std::string(kHead) + "void main() { o = 1.0; }\n");
  CHECK(e.added_tokens == 0);
  CHECK(e.work == 0);
}

TEST_CASE("macros at the expansion limit compile, past it the use is refused") {
  // A16 adds 4·2^16 − 4 = 262,140 tokens and A1 adds 4 more: exactly the
  // limit. glslang makes 2^18 tokens of it; Sluice compiles it in about 1 s.
  static_assert(kMaxMacroExpansionTokens == 262'144);
  const std::string at = std::string(kHead) + doubling(16) + "void main() { float x = 1.0; o = A16 + A1; }\n";
  CHECK(estimate_macro_expansion(at).added_tokens == kMaxMacroExpansionTokens);
  testing::compile_valid(at, "at.frag");

  // A2 adds 12: past the limit, refused at A2's use.
  const std::string past = std::string(kHead) + doubling(16) + "void main() { float x = 1.0; o = A16 + A2; }\n";
  const glsl_in::Result r = compile(past);
  const Diagnostic& d = only_error(r);
  CHECK(d.file == "expand.frag");
  CHECK(d.line == 20);
  CHECK(d.column == 40);
  CHECK(d.message ==
        "'A2' : macro expansion too large: the shader's macros would add more than 262144 tokens to it or take "
        "more than 1048576 to expand (Sluice's limits; see docs/limits.md)");
  CHECK(render(r.diagnostics, past).starts_with("expand.frag:20:40: error: 'A2' : macro expansion too large"));
}

TEST_CASE("the exponential shapes are refused before glslang expands them") {
  struct Case {
    const char* what;
    std::string source;
    const char* macro;
  };
  std::string pasting = "#define CAT(a, b) a##b\n#define A0 x\n";
  for (int i = 1; i <= 25; ++i) pasting += fmt::format("#define A{} (CAT(A, {})+CAT(A, {}))\n", i, i - 1, i - 1);
  std::string nested = "(x)";
  for (int i = 0; i < 25; ++i) nested = "D(" + nested + ")";
  // Sixteen levels: 2^16 copies would pass the limit, 3^16 do not.
  std::string nested16 = "x";
  for (int i = 0; i < 16; ++i) nested16 = "D(" + nested16 + ")";
  const Case cases[] = {
      {"object-like doubling", doubling(25) + "void main() { float x = 1.0; o = A25; }\n", "A25"},
      {"a function-like macro nested in the text", "#define D(x) x x\nvoid main() { float x = 1.0; o = 0.0 " + nested + "; }\n", "D"},
      // Z ignores its parameter, but glslang expands the argument first.
      {"an argument expanded and thrown away",
       doubling(25) + "#define Z(x) 1.0\nvoid main() { float x = 1.0; o = Z(A25); }\n", "Z"},
      // The pasted names are A24, A23, …: only `##` reaches them.
      {"pasting", pasting + "void main() { float x = 1.0; o = A25; }\n", "A25"},
      {"a cycle that doubles", "#define A B B\n#define B C C\n#define C D D\n#define D E E\n#define E F F\n"
                               "#define F G G\n#define G H H\n#define H I I\n#define I J J\n#define J K K\n"
                               "#define K L L\n#define L M M\n#define M N N\n#define N O O\n#define O P P\n"
                               "#define P Q Q\n#define Q R R\n#define R S S\n#define S T T\n#define T A A\n"
                               "void main() { float x = 1.0; o = A; }\n", "A"},
      {"an #if condition", doubling(25) + "#if A25 > 0\n#endif\nvoid main() { o = 1.0; }\n", "A25"},
      // D's own call in its body is not expanded again (it is busy) but stays,
      // argument and all: three copies of x a level (a fuzz finding).
      {"a macro that names itself",
       "#define D(x) e D(x) x x\nvoid main() { float x = 1.0; o = 0.0 " + nested16 + "; }\n", "D"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string source = std::string(kHead) + c.source;
    const auto e = estimate_macro_expansion(source);
    REQUIRE(e.over_limit_at_macro.has_value());
    CHECK(*e.over_limit_at_macro == c.macro);
    const glsl_in::Result r = compile(source);
    const Diagnostic& d = only_error(r);
    INFO(d.message);
    CHECK(d.message.starts_with(fmt::format("'{}' : macro expansion too large", c.macro)));
  }
}

TEST_CASE("macros given with -D count, and the refusal points into the shader") {
  glsl_in::Options o = testing::automap();
  for (int i = 1; i <= 25; ++i) o.macros.emplace_back(fmt::format("A{}", i), fmt::format("(A{}+A{})", i - 1, i - 1));
  o.macros.emplace_back("A0", "x");
  const std::string source = std::string(kHead) + "void main() { float x = 1.0; o = A25; }\n";
  const glsl_in::Result r = compile(source, o);
  const Diagnostic& d = only_error(r);
  CHECK(d.line == 3);
  CHECK(d.column == 34);
  CHECK(d.message.starts_with("'A25' : macro expansion too large"));
}

TEST_CASE("the glsl corpus's macros are far below the limit") {
  // cppMerge.frag is the corpus's one shader that pastes tokens.
  const std::string paste =
      "#version 450 core\n#define PASTER2(type, suffix) type##suffix\n#define MAKE_TYPE2(type, suffix) PASTER2(type, suffix)\n"
      "#define PREFIX image\n#define SUFFIX2 1D\n#define RESOURCE_TYPE2 MAKE_TYPE2(PREFIX, SUFFIX2)\n"
      "layout (set = 0, binding = 0) uniform writeonly RESOURCE_TYPE2 dest2;\nvoid main() {}\n";
  const auto e = estimate_macro_expansion(paste);
  CHECK_FALSE(e.over_limit_at_macro.has_value());
  CHECK(e.added_tokens < 100);
}
