// What λV programs compute: forms, functions as values, rec-func loops. The
// expected values are computed here in C++ from the same inputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

const char* kNatFold =
    "(define nat-fold (func (n accum f)\n"
    "  (let ((body (rec-func (n accum)\n"
    "                (if (eq n 0)\n"
    "                  accum\n"
    "                  (rec (- n 1) (f accum n))))))\n"
    "    (body n accum))))\n";

}  // namespace

TEST_CASE("functions are values: bound, passed, returned, chosen by if") {
  // Passed and returned.
  CHECK(lv_value("(define twice (func (f) (func (x) (f (f x)))))"
                 "(vec4 ((twice (func (x) (* x 3))) 2) 0 0 1)") == 18.0f);
  // A builtin passed as a function.
  CHECK(lv_value("(define apply2 (func (f a b) (f a b))) (vec4 (apply2 max 3 7) 0 0 1)") == 7.0f);
  // A swizzle passed as a function.
  CHECK(lv_value("(define get (func (f v) (f v))) (vec4 (get .y (vec3 4 5 6)) 0 0 1)") == 5.0f);
  // ((if c f g) x): the argument is applied in each branch.
  EvalInputs left, right;
  left.frag_coord = {10, 0, 0, 1};
  right.frag_coord = {300, 0, 0, 1};
  const char* choose = "(vec4 ((if (< (.x (frag-coord)) 100) sqrt exp) 4) 0 0 1)";
  CHECK(lv_value(choose, left) == std::sqrt(4.0f));
  CHECK(lv_value(choose, right) == std::exp(4.0f));
  // A function made inside a let and applied outside it.
  CHECK(lv_value("(vec4 ((let ((k 5)) (func (x) (+ x k))) 1) 0 0 1)") == 6.0f);
}

TEST_CASE("a function may be applied again while its result is being applied") {
  // The inner compose is applied inside the application of the outer
  // compose's result: not recursion.
  CHECK(lv_value("(define compose (func (f g) (func (x) (f (g x)))))\n"
                 "(vec4 ((compose (func (v) (* v 2)) (func (v) ((compose sqrt abs) v))) -16) 0 0 1)") ==
        2.0f * std::sqrt(std::fabs(-16.0f)));
}

TEST_CASE("arguments are evaluated once, before the body") {
  const ir::Module m = lv_compile(
      "(define quad (func (x) (+ x x x x)))\n"
      "(vec4 (quad (sin (.x (frag-coord)))) 0 0 1)");
  CHECK(count_opcode(m, ir::Opcode::Sin) == 1);
  CHECK(count_opcode(m, ir::Opcode::Add) == 3);
  EvalInputs in;
  in.frag_coord = {0.25f, 0, 0, 1};
  const float s = std::sin(0.25f);
  CHECK(evaluate(m, in).at(0).at(0) == s + s + s + s);
}

TEST_CASE("nested applications do not re-emit their arguments") {
  // Each level doubles its argument's uses; substitution would emit 2^12
  // copies of the innermost sin, evaluation once emits one.
  std::string src = "(define d (func (x) (+ x x)))\n(vec4 ";
  for (int i = 0; i < 12; ++i) src += "(d ";
  src += "(sin (.x (frag-coord)))";
  src.append(12, ')');
  src += " 0 0 1)";
  const ir::Module m = lv_compile(src);
  CHECK(count_opcode(m, ir::Opcode::Sin) == 1);
  CHECK(instruction_count(m) < 40);
  EvalInputs in;
  in.frag_coord = {0.5f, 0, 0, 1};
  CHECK(evaluate(m, in).at(0).at(0) == std::sin(0.5f) * 4096.0f);
}

TEST_CASE("the report's nat-fold with its non-recursive wrapper") {
  float expected = 0;
  for (int n = 10; n > 0; --n) expected += static_cast<float>(n);
  CHECK(lv_value(std::string(kNatFold) + "(vec4 (nat-fold 10 0 +) 0 0 1)") == expected);
  float product = 1;
  for (int n = 5; n > 0; --n) product *= static_cast<float>(n);
  CHECK(lv_value(std::string(kNatFold) + "(vec4 (nat-fold 5 1 *) 0 0 1)") == product);
  // With a user function that captures a run-time value.
  EvalInputs in;
  in.frag_coord = {2, 0, 0, 1};
  float weighted = 0;
  for (int n = 4; n > 0; --n) weighted = weighted + static_cast<float>(n) * 2.0f;
  CHECK(lv_value(std::string(kNatFold) +
                     "(let ((w (.x (frag-coord)))) (vec4 (nat-fold 4 0 (func (a n) (+ a (* n w)))) 0 0 1))",
                 in) == weighted);
}

TEST_CASE("rec assigns all parameters at once (Euclid's gcd swaps them)") {
  const char* gcd = "(define gcd (rec-func (a b) (if (eq b 0) a (rec b (mod a b)))))\n";
  for (auto [a, b] : {std::pair{12, 18}, {35, 14}, {17, 5}, {81, 27}}) {
    INFO(a << " " << b);
    CHECK(lv_value(std::string(gcd) + "(vec4 (gcd " + std::to_string(a) + " " + std::to_string(b) + ") 0 0 1)") ==
          static_cast<float>(std::gcd(a, b)));
  }
  // A plain swap: after an odd number of steps the values are exchanged.
  CHECK(lv_output("(vec4 ((rec-func (a b n) (if (eq n 0) (vec2 a b) (rec b a (- n 1)))) 1 2 3) 0 1)") ==
        std::vector<float>{2, 1, 0, 1});
}

TEST_CASE("rec arguments may contain ifs") {
  // The original compiler built wrong phis here.
  float acc = 0;
  for (int n = 6; n > 0; --n) acc += n < 3 ? 1.0f : 2.0f;
  CHECK(lv_value("(vec4 ((rec-func (n acc) (if (eq n 0) acc (rec (- n 1) (if (< n 3) (+ acc 1) (+ acc 2))))) 6 0) "
                 "0 0 1)") == acc);
}

TEST_CASE("rec-func arguments are evaluated in the caller's scope") {
  // The argument (+ n 1) means the outer n (5), not the loop's parameter n.
  float sum = 0;
  for (int n = 6; n > 0; --n) sum += static_cast<float>(n);
  CHECK(lv_value("(let ((n 5)) (vec4 ((rec-func (n acc) (if (eq n 0) acc (rec (- n 1) (+ acc n)))) (+ n 1) 0) 0 0 "
                 "1))") == sum);
}

TEST_CASE("rec in tail position through let, if and applied functions") {
  // Collatz steps of 27, written with the step in a helper func applied in
  // tail position.
  int steps = 0;
  for (long x = 27; x != 1; ++steps) x = x % 2 == 0 ? x / 2 : 3 * x + 1;
  CHECK(lv_value("(vec4 ((rec-func (x steps)\n"
                 "  (let ((next (func (y) (rec y (+ steps 1)))))\n"
                 "    (if (eq x 1) steps\n"
                 "      (if (eq (mod x 2) 0) (next (/ x 2)) (next (+ (* 3 x) 1))))))\n"
                 " 27 0) 0 0 1)") == static_cast<float>(steps));
}

TEST_CASE("rec-funcs nest, and their results feed further computation") {
  // sum over i < 4 of (sum over j < i of j)
  float expected = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < i; ++j) expected += static_cast<float>(j);
  CHECK(lv_value("(define inner (rec-func (j acc) (if (< j 1) acc (rec (- j 1) (+ acc (- j 1))))))\n"
                 "(vec4 (* 2 ((rec-func (i acc) (if (< i 1) acc (rec (- i 1) (+ acc (inner (- i 1) 0))))) 4 0)) 0 0 "
                 "1)") == 2 * expected);
  // A rec-func whose result is the body of another rec-func's tail.
  CHECK(lv_value("(vec4 ((rec-func (n) (if (> n 3) ((rec-func (m) (if (> m 10) m (rec (+ m 2)))) n) (rec (+ n 1)))) "
                 "0) 0 0 1)") == 12.0f);
}

TEST_CASE("and / or short-circuit, not negates") {
  for (bool a : {false, true})
    for (bool b : {false, true})
      for (bool c : {false, true}) {
        const std::string args = std::string(a ? " true" : " false") + (b ? " true" : " false") + (c ? " true" : " false");
        INFO(args);
        CHECK(lv_value("(vec4 (if (and" + args + ") 1 0) 0 0 1)") == ((a && b && c) ? 1.0f : 0.0f));
        CHECK(lv_value("(vec4 (if (or" + args + ") 1 0) 0 0 1)") == ((a || b || c) ? 1.0f : 0.0f));
        CHECK(lv_value("(vec4 (if (not (and" + args + ")) 1 0) 0 0 1)") == ((a && b && c) ? 0.0f : 1.0f));
      }
  // The second operand is not evaluated when the first decides: its If
  // branch holds it.
  const ir::Module m = lv_compile("(vec4 (if (and (< (.x (frag-coord)) 1) (> (sqrt (.y (frag-coord))) 2)) 1 0) 0 0 1)");
  CHECK(count_opcode(m, ir::Opcode::If) == 2);
  CHECK(count_opcode(m, ir::Opcode::LogicalAnd) == 0);
}

TEST_CASE("several outputs, and frag-coord") {
  const char* src =
      "(define uv (/ (.xy (frag-coord)) 256))\n"
      "(output 0 (vec4 uv 0 1))\n"
      "(output 1 (length uv))";
  EvalInputs in;
  in.frag_coord = {64, 128, 0, 1};
  const ir::Module m = lv_compile(src);
  const auto out = evaluate(m, in);
  CHECK(out.at(0) == std::vector<float>{64.0f / 256, 128.0f / 256, 0, 1});
  CHECK(out.at(1).at(0) == std::sqrt((64.0f / 256) * (64.0f / 256) + (128.0f / 256) * (128.0f / 256)));
}

TEST_CASE("closures capture run-time values") {
  EvalInputs in;
  in.frag_coord = {3, 4, 0, 1};
  CHECK(lv_value("(define make-scale (func (k) (func (v) (* v k))))\n"
                 "(let ((s (make-scale (.x (frag-coord))))) (vec4 (s (.y (frag-coord))) 0 0 1))",
                 in) == 12.0f);
}
