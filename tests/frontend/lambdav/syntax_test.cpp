// λV's lexical syntax and parser: numbers, booleans, identifiers, comments,
// strings, parentheses and the nesting limit.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "frontend/lambdav/ast.h"
#include "frontend/lambdav/generators.h"
#include "frontend/lambdav/lexer.h"
#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

TEST_CASE("decimal literals are numbers, parsed to the nearest float") {
  for (const char* text : {"1", "-0.25", ".5", "1e3", "2.5e-1", "-.5", "7.", "1E+2", "0.1", "123456789"}) {
    INFO(text);
    CHECK(lambdav::is_decimal_literal(text));
    const float expected = std::strtof(text, nullptr);
    CHECK(lv_value(std::string("(vec4 ") + text + " 0 0 1)") == expected);
  }
}

TEST_CASE("only decimal literals are numbers") {
  for (const char* text : {"0x10", "1e", "1.2.3", "12abc", "1e+", "-1-"}) {
    INFO(text);
    CHECK_FALSE(lambdav::is_decimal_literal(text));
    const std::string out = lv_error(std::string("(vec4 ") + text + " 0 0 1)");
    CHECK_THAT(out, Catch::Contains("malformed number '" + std::string(text) + "'"));
    CHECK_THAT(out, Catch::Contains("test.lv:1:7: error:"));
  }
  // inf and nan are not literals: they are (unbound) identifiers.
  CHECK_THAT(lv_error("(vec4 inf 0 0 1)"), Catch::Contains("unbound identifier 'inf'"));
  CHECK_THAT(lv_error("(vec4 nan 0 0 1)"), Catch::Contains("unbound identifier 'nan'"));
}

TEST_CASE("numbers beyond the float range are errors") {
  CHECK_THAT(lv_error("(vec4 1e39 0 0 1)"), Catch::Contains("out of range for a 32-bit float"));
  CHECK_THAT(lv_error("(vec4 -1e39 0 0 1)"), Catch::Contains("out of range for a 32-bit float"));
}

TEST_CASE("true and false are booleans") {
  CHECK(lv_value("(vec4 (if true 1 2) 0 0 1)") == 1.0f);
  CHECK(lv_value("(vec4 (if false 1 2) 0 0 1)") == 2.0f);
}

TEST_CASE("comments run from a semicolon to the end of the line") {
  CHECK(lv_output("; the colour\n(vec4 1 ; red\n 0.5 ; green ( unbalanced in a comment\n 0 1) ; done") ==
        std::vector<float>{1, 0.5f, 0, 1});
}

TEST_CASE("an identifier is any other run of characters") {
  CHECK(lv_value("(let ((a->b 2) (x? 3) (<weird>! 4) (√ 5)) (vec4 (+ a->b x? <weird>! √) 0 0 1))") == 14.0f);
}

TEST_CASE("string literals are an error") {
  const std::string out = lv_error("(vec4 1 \"red\" 0 1)");
  CHECK_THAT(out, Catch::StartsWith("test.lv:1:9: error: string literals are not part of λV"));
}

TEST_CASE("control characters are an error") {
  CHECK_THAT(lv_error(std::string("(vec4 1 a\x01 0 1)")), Catch::Contains("unexpected control character 0x01"));
}

TEST_CASE("the parser builds a flat tree") {
  Diagnostics ds;
  lambdav::DiagnosticSink sink("t.lv", ds);
  const lambdav::Ast ast = lambdav::parse("(define x 1) (vec4 x (.y (vec2 1 2)) true 1)", sink);
  REQUIRE(ds.empty());
  REQUIRE(ast.top_level.size() == 2);
  const auto define = ast.items(ast.top_level[0]);
  REQUIRE(define.size() == 3);
  CHECK(ast.is_identifier(define[0], "define"));
  CHECK(ast.node(define[2]).kind == lambdav::NodeKind::Number);
  const auto vec = ast.items(ast.top_level[1]);
  REQUIRE(vec.size() == 5);
  CHECK(ast.node(vec[2]).kind == lambdav::NodeKind::List);
  CHECK(ast.node(vec[3]).kind == lambdav::NodeKind::Bool);
  CHECK(ast.node(vec[3]).boolean);
  CHECK(ast.node(vec[2]).line == 1);
  CHECK(ast.node(vec[2]).column == 22);
}

TEST_CASE("unbalanced parentheses are reported where they are") {
  CHECK_THAT(lv_error("(vec4 1 0 0 1))"), Catch::StartsWith("test.lv:1:15: error: unbalanced parentheses: ')' without"));
  CHECK_THAT(lv_error("(define f (func (x)\n  (+ x 1))\n(vec4 (f 1) 0 0 1)"),
             Catch::StartsWith("test.lv:1:1: error: unbalanced parentheses: this '(' is never closed"));
}

TEST_CASE("nesting up to the limit parses, one level more is an error") {
  const std::uint32_t limit = lambdav::kDefaultMaxNesting;
  auto nested = [](std::uint32_t depth) {
    // (vec4 (+ (+ ... (+ 1) ...)) 0 0 1) with `depth` parentheses in all.
    std::string s = "(vec4 ";
    for (std::uint32_t i = 1; i < depth; ++i) s += "(+ 0 ";
    s += "1";
    s.append(depth - 1, ')');
    return s + " 0 0 1)";
  };
  CHECK(lv_value(nested(limit)) == 1.0f);
  const std::string out = lv_error(nested(limit + 1));
  CHECK_THAT(out, Catch::Contains("nesting deeper than " + std::to_string(limit) + " levels"));
  // Reported at the first '(' past the limit: column 1 + 5 * limit.
  CHECK_THAT(out, Catch::StartsWith("test.lv:1:" + std::to_string(1 + 6 + 5 * (limit - 1)) + ": error:"));
}

TEST_CASE("100000 nested lets are rejected with a diagnostic, not a crash") {
  const std::string source = lambdav::generate::deep_lets(100'000);
  const std::string out = lv_error(source);
  CHECK_THAT(out, Catch::Contains("nesting deeper than"));
}

TEST_CASE("a million open parentheses are rejected quickly") {
  const std::string source(1'000'000, '(');
  CHECK_THAT(lv_error(source), Catch::Contains("nesting deeper than"));
}

TEST_CASE("the nesting limit is an option") {
  auto options = lv_options();
  options.max_nesting = 4;
  CHECK_THAT(lv_error("(vec4 (+ 1 (+ 2 (+ 3 (+ 4 5)))) 0 0 1)", options), Catch::Contains("deeper than 4 levels"));
}
