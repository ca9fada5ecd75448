// Higher-order nesting: functions passed through several levels, returned
// from functions, and applied inside lambdas passed to the very function
// that applies them. None of these recurse, so all must compile; generated
// programs are checked against a model computed here in C++ (the IR the
// front end makes is run by the IR interpreter, tests/support/fragment_eval.h). Real
// recursion (the report's self-applying sumup) stays an error.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <random>

#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

const char* kPrelude =
    "(define app (func (f x) (f x)))\n"
    "(define twice (func (f) (func (x) (f (f x)))))\n"
    "(define compose (func (f g) (func (x) (f (g x)))))\n"
    "(define pick (func (f) f))\n";

// A λV function from Num to Num, and what it computes.
struct Fn {
  std::string text;
  std::function<float(float)> model;
};

std::string number(float c) {
  std::string s = std::to_string(c);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

// Random functions of bounded depth; `budget` bounds the number of `twice`
// on a path so that the inlined program stays small.
class Generator {
 public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  Fn function(int depth, int twice_budget) {
    const int choice = depth == 0 ? pick_leaf() : static_cast<int>(rng_() % 9);
    switch (choice) {
      case 0: {
        const float c = constant();
        return {"(func (x) (+ x " + number(c) + "))", [c](float x) { return x + c; }};
      }
      case 1: {
        const float c = constant();
        return {"(func (x) (* x " + number(c) + "))", [c](float x) { return x * c; }};
      }
      case 2: return {"-", [](float x) { return -x; }};
      case 3: {
        // The shape: app applied to a lambda whose body applies app
        // to another function.
        Fn f = function(depth - 1, twice_budget);
        return {"(func (y) (app (func (z) (app " + f.text + " z)) y))", f.model};
      }
      case 4: {
        if (twice_budget == 0) return function(depth, 0);
        Fn f = function(depth - 1, twice_budget - 1);
        auto m = f.model;
        return {"(twice " + f.text + ")", [m](float x) { return m(m(x)); }};
      }
      case 5: {
        Fn f = function(depth - 1, twice_budget);
        Fn g = function(depth - 1, twice_budget);
        auto mf = f.model, mg = g.model;
        return {"(compose " + f.text + " " + g.text + ")", [mf, mg](float x) { return mf(mg(x)); }};
      }
      case 6: {
        // Returned from a function, capturing a value.
        Fn f = function(depth - 1, twice_budget);
        const float k = constant();
        auto m = f.model;
        return {"((func (k) (func (x) (" + f.text + " (+ x k)))) " + number(k) + ")",
                [m, k](float x) { return m(x + k); }};
      }
      case 7: {
        // twice applied to a lambda whose body applies twice (to another
        // function): twice(λx. (twice f) x) = f⁴.
        if (twice_budget < 2) return function(depth, 0);
        Fn f = function(depth - 1, twice_budget - 2);
        auto m = f.model;
        return {"(twice (func (x) ((twice " + f.text + ") x)))", [m](float x) { return m(m(m(m(x)))); }};
      }
      default: {
        // Passed through pick and a let before being applied.
        Fn f = function(depth - 1, twice_budget);
        auto m = f.model;
        return {"(let ((g (pick " + f.text + "))) (func (x) (app g x)))", m};
      }
    }
  }

 private:
  int pick_leaf() { return static_cast<int>(rng_() % 3); }
  float constant() {
    static const float kConstants[] = {1, 2, 3, -1, 0.5f, -2};
    return kConstants[rng_() % std::size(kConstants)];
  }
  std::mt19937 rng_;
};

}  // namespace

TEST_CASE("the issue's example: a higher-order function applied inside a lambda passed to it") {
  CHECK(lv_value(std::string(kPrelude) + "(vec4 (app (func (y) (app (func (z) (* z 3)) y)) 5) 0 0 1)") == 15.0f);
  // Three levels of the same function, each with another argument.
  CHECK(lv_value(std::string(kPrelude) +
                 "(vec4 (app (func (a) (app (func (b) (app (func (c) (+ c 1)) b)) a)) 5) 0 0 1)") == 6.0f);
}

TEST_CASE("real recursion through func is still an error") {
  // The same function applied to the same function arguments inside its own
  // body would be lowered forever.
  CHECK_THAT(lv_error("(define sumup (func (self n) (if (eq n 0) 0 (+ n (self self (- n 1))))))\n"
                      "(vec4 (sumup sumup 10) 0 0 1)"),
             Catch::Contains("recursion through func"));
  // Through app and a lambda: loop(loop, x) reaches loop(loop, x) again.
  CHECK_THAT(lv_error(std::string(kPrelude) +
                      "(define loop (func (self x) (app (func (y) (self self y)) x)))\n(vec4 (loop loop 1) 0 0 1)"),
             Catch::Contains("recursion through func"));
}

TEST_CASE("generated higher-order nesting computes what the model says") {
  const std::uint32_t seed = GENERATE(range(1u, 121u));
  Generator gen(seed);
  const Fn f = gen.function(4, 3);
  const std::string src = std::string(kPrelude) + "(vec4 (" + f.text + " (.x (frag-coord))) 0 0 1)";
  INFO("seed " << seed << "\n" << src);
  EvalInputs in;
  in.frag_coord = {1.5f, 0, 0, 1};
  CHECK(lv_value(src, in) == f.model(1.5f));
}
