// Scoping and the shape of forms: what the resolver accepts and rejects
// before anything is lowered.
#include <catch2/catch.hpp>

#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

TEST_CASE("every unbound identifier is reported, each where it is") {
  auto r = lambdav::compile("(vec4 foo 0\n  (bar 1) 1)", lv_options());
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].message == "unbound identifier 'foo'");
  CHECK(r.diagnostics[0].line == 1);
  CHECK(r.diagnostics[0].column == 7);
  CHECK(r.diagnostics[1].message == "unbound identifier 'bar'");
  CHECK(r.diagnostics[1].line == 2);
  CHECK(r.diagnostics[1].column == 4);
}

TEST_CASE("user bindings shadow builtins") {
  CHECK(lv_value("(let ((sin (func (x) (* x 2)))) (vec4 (sin 3) 0 0 1))") == 6.0f);
  CHECK(lv_value("(define + -) (vec4 (+ 5 2) 0 0 1)") == 3.0f);
  CHECK(lv_value("(let ((.x 4)) (vec4 .x 0 0 1))") == 4.0f);
}

TEST_CASE("scoping is lexical") {
  // f sees the x of where it was made, not of where it is applied.
  CHECK(lv_value("(let ((x 1)) (let ((f (func (y) (+ x y)))) (let ((x 10)) (vec4 (f 0) 0 0 1))))") == 1.0f);
  // A parameter shadows an outer binding of the same name.
  CHECK(lv_value("(let ((n 5)) (vec4 ((func (n) (* n 2)) 3) 0 0 1))") == 6.0f);
}

TEST_CASE("let binds in parallel") {
  CHECK(lv_value("(let ((x 1)) (let ((x 2) (y x)) (vec4 y 0 0 1)))") == 1.0f);
}

TEST_CASE("a define is visible to the forms after it, not before") {
  CHECK(lv_value("(define a 2) (define b (* a 3)) (vec4 b 0 0 1)") == 6.0f);
  CHECK_THAT(lv_error("(define b (* a 3)) (define a 2) (vec4 b 0 0 1)"), Catch::Contains("unbound identifier 'a'"));
  CHECK_THAT(lv_error("(define f (func (n) (f n))) (vec4 (f 1) 0 0 1)"), Catch::Contains("unbound identifier 'f'"));
  CHECK_THAT(lv_error("(define a 1) (define a 2) (vec4 a 0 0 1)"), Catch::Contains("'a' is already defined"));
}

TEST_CASE("special forms and rec cannot be rebound or used as values") {
  CHECK_THAT(lv_error("(let ((if 1)) (vec4 1 0 0 1))"), Catch::Contains("'if' is reserved"));
  CHECK_THAT(lv_error("(define let 1) (vec4 1 0 0 1)"), Catch::Contains("'let' is reserved"));
  CHECK_THAT(lv_error("(vec4 ((func (rec) 1) 2) 0 0 1)"), Catch::Contains("'rec' is reserved"));
  CHECK_THAT(lv_error("(vec4 (let ((f if)) 1) 0 0 1)"), Catch::Contains("'if' is a special form, not a value"));
}

TEST_CASE("define and output belong to the top level") {
  CHECK_THAT(lv_error("(vec4 (define x 1) 0 0 1)"), Catch::Contains("only allowed at the top level"));
  CHECK_THAT(lv_error("(let ((x 1)) (output 0 (vec4 x)))"), Catch::Contains("only allowed at the top level"));
}

TEST_CASE("outputs: locations, at most one bare expression, at least one output") {
  CHECK(lv_output("(output 2 (vec2 1 2)) (output 0 (vec4 3))", {}, 2) == std::vector<float>{1, 2});
  CHECK_THAT(lv_error("(vec4 1) (vec4 2)"), Catch::Contains("at most one bare expression"));
  CHECK_THAT(lv_error("(output 0 (vec4 1)) (vec4 2)"), Catch::Contains("output 0 is written twice (first at 1:1)"));
  CHECK_THAT(lv_error("(output 1.5 (vec4 1))"), Catch::Contains("whole number from 0 to 31"));
  CHECK_THAT(lv_error("(output 32 (vec4 1))"), Catch::Contains("whole number from 0 to 31"));
  CHECK_THAT(lv_error("(output -1 (vec4 1))"), Catch::Contains("whole number from 0 to 31"));
  CHECK_THAT(lv_error("(output x (vec4 1))"), Catch::Contains("whole number from 0 to 31"));
  CHECK_THAT(lv_error("(define x 1)"), Catch::Contains("the program has no output"));
  CHECK_THAT(lv_error(""), Catch::Contains("the program has no output"));
}

TEST_CASE("malformed special forms") {
  CHECK_THAT(lv_error("(let (x 1) x)"), Catch::Contains("a let binding is a list of a name and an expression"));
  CHECK_THAT(lv_error("(let ((x 1)))"), Catch::Contains("let needs a list of bindings and a body"));
  CHECK_THAT(lv_error("(let ((1 1)) 1)"), Catch::Contains("a let binding's name must be an identifier"));
  CHECK_THAT(lv_error("(let ((x 1) (x 2)) (vec4 x))"), Catch::Contains("'x' is bound twice in one let"));
  CHECK_THAT(lv_error("(if true 1)"), Catch::Contains("if needs a condition and two branches"));
  CHECK_THAT(lv_error("(vec4 ((func x x) 1))"), Catch::Contains("func needs a parameter list and a body"));
  CHECK_THAT(lv_error("(vec4 ((func (x x) x) 1 2))"), Catch::Contains("parameter 'x' appears twice"));
  CHECK_THAT(lv_error("(vec4 ((rec-func () (rec)) ))"), Catch::Contains("a rec-func needs at least one parameter"));
  CHECK_THAT(lv_error("(vec4 ())"), Catch::Contains("empty list"));
  CHECK_THAT(lv_error("(define 3 1) (vec4 1)"), Catch::Contains("the name of a define must be an identifier"));
}

TEST_CASE("rec is bound only inside a rec-func and names the innermost one") {
  CHECK_THAT(lv_error("(vec4 (rec 1))"), Catch::Contains("rec used outside a rec-func"));
  // rec inside a func that is inside a rec-func is that rec-func's rec.
  CHECK(lv_value("(vec4 ((rec-func (n) (let ((down (func (m) (rec (- m 1))))) (if (< n 1) n (down n)))) 4) 0 0 1)") ==
        0.0f);
}
