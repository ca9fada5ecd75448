// Each diagnostic the issue requires, in the exact form a user sees:
// `file:line:col: error: message`, the source line, and a caret under the
// column. The expected position is computed from where the test places the
// offending text.
#include <catch2/catch.hpp>

#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

// Requires exactly one diagnostic, at the first occurrence of `marker` in
// `source` (1-based line and column computed here), whose message contains
// every string in `words`; checks the rendered source line and caret.
void expect_error_at(const std::string& source, const std::string& marker, std::vector<std::string> words) {
  auto r = lambdav::compile(source, lv_options("shader.lv"));
  INFO(source << "\n" << render(r.diagnostics, source));
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  const std::size_t at = source.find(marker);
  REQUIRE(at != std::string::npos);
  const std::size_t line_start = source.rfind('\n', at) == std::string::npos ? 0 : source.rfind('\n', at) + 1;
  const auto line = static_cast<std::uint32_t>(std::count(source.begin(), source.begin() + static_cast<long>(at), '\n') + 1);
  const auto column = static_cast<std::uint32_t>(at - line_start + 1);
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.line == line);
  CHECK(d.column == column);
  for (const std::string& w : words) CHECK_THAT(d.message, Catch::Contains(w));
  const std::size_t line_end = source.find('\n', at);
  const std::string text = source.substr(line_start, line_end == std::string::npos ? std::string::npos : line_end - line_start);
  const std::string expected = "shader.lv:" + std::to_string(line) + ":" + std::to_string(column) + ": error: " +
                               d.message + "\n" + text + "\n" + std::string(column - 1, ' ') + "^\n";
  CHECK(render(r.diagnostics, source) == expected);
}

}  // namespace

TEST_CASE("diagnostic: unbalanced parentheses") {
  expect_error_at("(define a 1)\n(vec4 a 0 0 1) ) ; one too many", ") ;", {"unbalanced parentheses", "without a matching"});
  expect_error_at("(define a 1)\n(vec4 a (+ 0 0 1)", "(vec4", {"unbalanced parentheses", "never closed"});
}

TEST_CASE("diagnostic: string literal") {
  expect_error_at("(vec4 1 0 0 1)\n(output 1 \"blue\")", "\"blue", {"string literals are not part of λV"});
}

TEST_CASE("diagnostic: unbound identifier") {
  expect_error_at("(let ((x 1))\n  (vec4 x y 0 1))", "y 0", {"unbound identifier 'y'"});
}

TEST_CASE("diagnostic: arity mismatch") {
  expect_error_at("(define f (func (a b) (+ a b)))\n(vec4 (f 1) 0 0 1)", "(f 1)", {"'f' takes 2 arguments, 1 given"});
  expect_error_at("(vec4 (sin 1 2) 0 0 1)", "(sin", {"'sin' takes 1 argument, 2 given"});
  expect_error_at("(vec4 ((rec-func (n) (if (< n 1) n (rec n 2))) 3) 0 0 1)", "(rec n",
                  {"rec takes 1 argument", "2 given"});
}

TEST_CASE("diagnostic: type mismatch names both types") {
  expect_error_at("(vec4 (+ (vec2 1 2) true) 0 1)", "(+", {"type mismatch", "Vec(2, f)", "Bool"});
  expect_error_at("(vec4 ((rec-func (n) (if (< n 1) n (rec (vec2 n)))) 3) 0 0 1)", "(vec2 n)",
                  {"type mismatch", "Vec(2, f)", "Num"});
  expect_error_at("(vec4 (if 1 2 3) 0 0 1)", "1 2 3", {"condition of if must be Bool, not Num"});
}

TEST_CASE("diagnostic: if branches of different types") {
  expect_error_at("(define c (< (.x (frag-coord)) 1))\n(vec4 (if c 1 (vec2 1 2)) 0 1)", "(if c",
                  {"branches of this if have different types", "Num", "Vec(2, f)"});
  // The same in a rec-func's tail position.
  expect_error_at("(vec4 ((rec-func (n) (if (< n 1) (vec2 n) (if (< n 2) n (rec (- n 1))))) 3) 0 0 1)", "(if (< n 1)",
                  {"branches of this if have different types", "Vec(2, f)", "Num"});
}

TEST_CASE("diagnostic: rec outside a rec-func or not in tail position") {
  expect_error_at("(define f (func (n) (rec n)))\n(vec4 (f 1) 0 0 1)", "rec n", {"rec used outside a rec-func"});
  expect_error_at("(vec4 ((rec-func (n) (if (< n 1) n (+ 1 (rec (- n 1))))) 3) 0 0 1)", "(rec (-",
                  {"rec is not in tail position"});
  expect_error_at("(vec4 ((rec-func (n) (let ((m (rec n))) m)) 3) 0 0 1)", "(rec n)", {"rec is not in tail position"});
  // A rec carried into a nested rec-func's body refers to the outer loop.
  expect_error_at(
      "(vec4 ((rec-func (n) (let ((again (func (x) (rec x)))) (if (< n 1) n\n"
      "  ((rec-func (m) (if (< m 1) m (if (< m 2) (again m) (rec (- m 1))))) n)))) 3) 0 0 1)",
      "(rec x)", {"rec is not in tail position"});
}

TEST_CASE("diagnostic: rec-func without rec") {
  expect_error_at("(vec4 ((rec-func (n) (* n 2)) 3) 0 0 1)", "(rec-func", {"rec-func without rec"});
  // The rec exists but lowering never reaches it: it is in a func never applied.
  expect_error_at("(vec4 ((rec-func (n) (let ((f (func (x) (rec x)))) n)) 3) 0 0 1)", "(rec-func",
                  {"rec-func without rec"});
  // Every path recurs: the loop could never end.
  expect_error_at("(vec4 ((rec-func (n) (rec (+ n 1))) 3) 0 0 1)", "(rec-func", {"never gives a value"});
}

TEST_CASE("diagnostic: recursion through plain func (the report's sumup)") {
  expect_error_at(
      "(let\n"
      "  ((sumup (func (self n)\n"
      "    (if (eq n 0) 0 (+ n (self self (- n 1)))))))\n"
      "  (vec4 (sumup sumup 10) 0 0 1))",
      "(self self", {"recursion through func", "'sumup'", "rec-func"});
}

TEST_CASE("diagnostic: output of a non-float type") {
  expect_error_at("(output 0 (< 1 2))", "(< 1 2)", {"output 0 must be Num or Vec(2..4, f), not Bool"});
  expect_error_at("(output 1 (mat2 1))", "(mat2", {"output 1 must be Num or Vec(2..4, f), not Mat(2)"});
  expect_error_at("(output 0 (bvec4 true))", "(bvec4", {"not Vec(4, b)"});
  expect_error_at("(output 0 sin)", "sin", {"not the builtin 'sin'"});
}

TEST_CASE("diagnostic: vector constructor size mismatch") {
  expect_error_at("(vec4 (vec2 1 2) 3)", "(vec4", {"vector constructor size mismatch", "'vec4' needs 4", "give 3"});
  expect_error_at("(vec4 (vec3 (vec2 1 2) (vec2 3 4)) 1)", "(vec3", {"'vec3' needs 3", "give 4"});
}

TEST_CASE("diagnostic: nesting deeper than the limit") {
  auto options = lv_options("shader.lv");
  options.max_nesting = 3;
  const std::string source = "(vec4 (+ 1 (+ 2 (+ 3 4))) 0 0 1)";
  auto r = lambdav::compile(source, options);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "nesting deeper than 3 levels of parentheses (the limit; see docs/lambdav.md)");
  CHECK(r.diagnostics[0].column == source.find("(+ 3") + 1);
}

TEST_CASE("diagnostics are capped, and nothing is produced on error") {
  std::string source;
  for (int i = 0; i < 500; ++i) source += "(vec4 nope" + std::to_string(i) + ")\n";
  auto r = lambdav::compile(source, lv_options());
  CHECK_FALSE(r.module.has_value());
  CHECK(r.diagnostics.size() == 50);
}
