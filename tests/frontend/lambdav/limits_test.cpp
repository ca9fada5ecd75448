// No input, however large or deep, crashes the compiler or makes it recurse
// without bound; programs whose inlining explodes compile to small IR or
// are rejected as too large (bench/hostile_input_bench.cpp times them).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "frontend/lambdav/generators.h"
#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

TEST_CASE("lets nested as deep as the nesting limit allows compile") {
  // Each let level adds about three parentheses.
  const std::size_t levels = (lambdav::kDefaultMaxNesting - 4) / 3;
  const ir::Module m = lv_compile(lambdav::generate::deep_lets(levels));
  CHECK(evaluate(m).at(0).at(3) == static_cast<float>(levels));
}

TEST_CASE("function bodies inlined too deeply hit the documented depth limit") {
  // f_i applies f_{i-1}; the functions capture a run-time value, so each is
  // inlined inside the previous one.
  std::string src = "(define k (.x (frag-coord)))\n(define f0 (func (x) (+ x k)))\n";
  const std::size_t n = lambdav::kDefaultMaxDepth;
  for (std::size_t i = 1; i <= n; ++i)
    src += "(define f" + std::to_string(i) + " (func (x) (f" + std::to_string(i - 1) + " x)))\n";
  src += "(vec4 (f" + std::to_string(n) + " 1) 0 0 1)";
  const std::string out = lv_error(src);
  CHECK_THAT(out, Catch::Contains("nest more than " + std::to_string(lambdav::kDefaultMaxDepth) + " levels"));
  // Shorter chains are fine.
  std::string ok = "(define k (.x (frag-coord)))\n(define f0 (func (x) (+ x k)))\n";
  for (std::size_t i = 1; i <= 200; ++i)
    ok += "(define f" + std::to_string(i) + " (func (x) (f" + std::to_string(i - 1) + " x)))\n";
  ok += "(vec4 (f200 1) 0 0 1)";
  EvalInputs in;
  in.frag_coord = {2, 0, 0, 1};
  CHECK(lv_value(ok, in) == 3.0f);
}

TEST_CASE("repeated doubling through higher-order functions compiles to small IR") {
  const std::size_t levels = 40;  // 2^40 inlined copies would never finish
  const ir::Module m = lv_compile(lambdav::generate::doubling(levels, false));
  CHECK(m.function_count() == levels + 2);  // main, f0 and the levels of (twice f)
  CHECK(instruction_count(m) < 10 * (levels + 2));
  // f_levels adds 1, 2^levels times: small levels can be run.
  const ir::Module small = lv_compile(lambdav::generate::doubling(10, false));
  CHECK(evaluate(small).at(0).at(0) == 1024.0f);
}

// How long the refusal takes is bench/hostile_input_bench.cpp's
// BM_DoublingRefused.
TEST_CASE("doubling that must be inlined is rejected as too large") {
  const std::string out = lv_error(lambdav::generate::doubling(60, true));
  CHECK_THAT(out, Catch::Contains("program too large"));
  // The budget is an option; a small doubling fits and computes 2^n * k.
  const std::string small = lambdav::generate::doubling(8, true);
  EvalInputs in;
  in.frag_coord = {3, 0, 0, 1};
  CHECK(lv_value(small, in) == 256.0f * 3.0f);
  auto tight = lv_options();
  tight.max_steps = 100;
  CHECK_THAT(lv_error(small, tight), Catch::Contains("more than 100 steps"));
}

TEST_CASE("self-application in the style of a fixed-point combinator is an error, not a crash") {
  // Z = λf.(λx.f(λv.x x v))(λx.f(λv.x x v)): every step makes fresh closures.
  const std::string src =
      "(define z (func (f) ((func (x) (f (func (v) ((x x) v)))) (func (x) (f (func (v) ((x x) v)))))))\n"
      "(define fact (z (func (self) (func (n) (if (< n 1) 1 (* n (self (- n 1))))))))\n"
      "(vec4 (fact 5) 0 0 1)";
  const std::string out = lv_error(src);
  const bool explained = out.find("recursion through func") != std::string::npos ||
                         out.find("levels deep") != std::string::npos ||
                         out.find("program too large") != std::string::npos;
  CHECK(explained);
}

TEST_CASE("recursion through returned functions is an error, not a crash") {
  // Each step makes a fresh closure of the inner func; they are equal (same
  // node, same captured w), so the second application is found inside the
  // first. With IR functions off, the nesting grows to the depth limit.
  const std::string src = "(define w (func (f) (func (x) ((f f) x))))\n(vec4 ((w w) 1) 0 0 1)";
  const std::string out = lv_error(src);
  CHECK_THAT(out, Catch::Contains("recursion through func"));
  CHECK_THAT(out, Catch::Contains("rec-func"));
  auto inline_all = lv_options();
  inline_all.ir_functions = false;
  const std::string deep = lv_error(src, inline_all);
  CHECK_THAT(deep, Catch::Contains("levels deep"));
  CHECK_THAT(deep, Catch::Contains("rec-func"));
}

TEST_CASE("large programs of each generator compile to validated IR") {
  for (const std::string& src : {lambdav::generate::nested_lets_of_size(200'000),
                                 lambdav::generate::arithmetic_chain_of_size(200'000),
                                 lambdav::generate::nested_rec_funcs_of_size(200'000)}) {
    auto r = lambdav::compile(src, lv_options());
    REQUIRE(r.ok());
    CHECK(r.stats.nodes > 150'000);
    CHECK(validator::validate(*r.module).empty());
  }
}

TEST_CASE("random text never crashes the compiler") {
  // Token soup from λV's vocabulary plus junk bytes; every result is either
  // a validated module or diagnostics.
  const char* words[] = {"(", "(", ")", ")", "let", "if", "func", "rec-func", "rec", "define", "output", "x", "y",
                         "+", "*", "vec4", "vec2", "mat2", ".xy", "1", "-2.5", "true", "eq", "and", "frag-coord",
                         "\"", ";", "\n", "((x 1))", "(x)", "0x1", "sin", "dot", "(rec-func (n)", "(func (f x)"};
  std::mt19937 rng(12345);
  int compiled = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string src;
    const int length = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < length; ++i) {
      src += words[rng() % std::size(words)];
      src += ' ';
    }
    if (round % 7 == 0) src += static_cast<char>(rng() % 256);
    auto r = lambdav::compile(src, lv_options());
    if (r.ok()) {
      ++compiled;
      INFO(src);
      CHECK(validator::validate(*r.module).empty());
    } else {
      CHECK_FALSE(r.diagnostics.empty());
    }
  }
  SUCCEED(compiled << " of 3000 random programs compiled");
}

TEST_CASE("well-formed random programs lower to valid IR and run") {
  // Random expression trees over Num with lets, ifs, functions and loops.
  std::mt19937 rng(777);
  std::function<std::string(int, int)> expr = [&](int depth, int vars) -> std::string {
    const unsigned pick = depth <= 0 ? rng() % 2 : rng() % 9;
    switch (pick) {
      case 0: return std::to_string(static_cast<int>(rng() % 5));
      case 1: return vars > 0 ? "v" + std::to_string(rng() % static_cast<unsigned>(vars)) : "(.x (frag-coord))";
      case 2: return "(+ " + expr(depth - 1, vars) + " " + expr(depth - 1, vars) + ")";
      case 3: return "(* " + expr(depth - 1, vars) + " 0.5)";
      case 4:
        return "(if (< " + expr(depth - 1, vars) + " " + expr(depth - 1, vars) + ") " + expr(depth - 1, vars) + " " +
               expr(depth - 1, vars) + ")";
      case 5:
        return "(let ((v" + std::to_string(vars) + " " + expr(depth - 1, vars) + ")) " + expr(depth - 1, vars + 1) + ")";
      case 6:
        return "((func (v" + std::to_string(vars) + ") " + expr(depth - 1, vars + 1) + ") " + expr(depth - 1, vars) + ")";
      case 7:
        return "((rec-func (v" + std::to_string(vars) + " n) (if (< n 1) " + expr(depth - 1, vars + 1) + " (rec (+ v" +
               std::to_string(vars) + " 1) (- n 1)))) " + expr(depth - 1, vars) + " 3)";
      default: return "(max " + expr(depth - 1, vars) + " " + expr(depth - 1, vars) + ")";
    }
  };
  for (int i = 0; i < 300; ++i) {
    const std::string src = "(vec4 " + expr(5, 0) + " 0 0 1)";
    INFO(src);
    const ir::Module m = lv_compile(src);
    CHECK(std::isfinite(evaluate(m).at(0).at(0)));
  }
}

TEST_CASE("the step budget, at it and one past it") {
  const std::string src = lambdav::generate::doubling(8, true);
  const auto measured = lambdav::compile(src, lv_options());
  REQUIRE(measured.ok());
  const std::uint64_t steps = measured.stats.steps;
  auto at = lv_options();
  at.max_steps = steps;
  CHECK(lambdav::compile(src, at).ok());
  auto past = lv_options();
  past.max_steps = steps - 1;
  CHECK_THAT(lv_error(src, past),
             Catch::Contains("program too large: lowering it takes more than " + std::to_string(steps - 1) + " steps"));
}

TEST_CASE("the evaluation depth limit, at it and one past it") {
  // A chain of n inlined functions (they capture a run-time value) nests
  // about n levels; the smallest max_depth that compiles it is the limit.
  auto chain = [](std::size_t n) {
    std::string src = "(define k (.x (frag-coord)))\n(define f0 (func (x) (+ x k)))\n";
    for (std::size_t i = 1; i <= n; ++i)
      src += "(define f" + std::to_string(i) + " (func (x) (f" + std::to_string(i - 1) + " x)))\n";
    return src + "(vec4 (f" + std::to_string(n) + " 1) 0 0 1)";
  };
  auto compiles_with = [](const std::string& src, std::uint32_t depth) {
    auto o = lv_options();
    o.max_depth = depth;
    return lambdav::compile(src, o).ok();
  };
  const std::string src = chain(100);
  std::uint32_t lo = 1, hi = lambdav::kDefaultMaxDepth;  // fails at lo, compiles at hi
  REQUIRE(compiles_with(src, hi));
  REQUIRE_FALSE(compiles_with(src, lo));
  while (hi - lo > 1) {
    const std::uint32_t mid = (lo + hi) / 2;
    (compiles_with(src, mid) ? hi : lo) = mid;
  }
  // At the limit it compiles; one level less is the documented error.
  auto past = lv_options();
  past.max_depth = hi - 1;
  CHECK_THAT(lv_error(src, past), Catch::Contains("nest more than " + std::to_string(hi - 1) + " levels"));
  // The depth counts the inlined bodies: a longer chain nests deeper.
  CHECK(hi > 100);
  CHECK_FALSE(compiles_with(chain(200), hi));
}
