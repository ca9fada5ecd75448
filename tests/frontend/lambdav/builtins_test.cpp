// Every builtin: its type rule (lv_type names the result type) and what it
// computes (evaluated IR against the GLSL definition computed here).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

std::string num(float x) {
  std::string s = std::to_string(x);
  return s;
}

// The components of output 0 for `(vec4 EXPR ...)` padded by the caller.
std::vector<float> eval_vec(const std::string& expr) { return lv_output("(output 0 " + expr + ")"); }

}  // namespace

TEST_CASE("arithmetic: component-wise, scalar broadcast, linear algebra") {
  CHECK(lv_type("(+ 1 2)") == "Num");
  CHECK(lv_type("(+ 1 2 3 4)") == "Num");
  CHECK(lv_type("(+ (vec3 1) 2)") == "Vec(3, f)");
  CHECK(lv_type("(- 2 (vec2 1))") == "Vec(2, f)");
  CHECK(lv_type("(* (mat3 1) (vec3 1))") == "Vec(3, f)");
  CHECK(lv_type("(* (vec4 1) (mat4 1))") == "Vec(4, f)");
  CHECK(lv_type("(* (mat2 1) (mat2 2))") == "Mat(2)");
  CHECK(lv_type("(* 2 (mat2 1))") == "Mat(2)");
  CHECK(lv_type("(+ (mat2 1) 1)") == "Mat(2)");
  CHECK(lv_type("(- (mat3 1))") == "Mat(3)");
  CHECK(lv_type("(/ (vec4 1) 2)") == "Vec(4, f)");

  CHECK(eval_vec("(vec4 (+ 1 2 3.5) (- 7 2) (* 2 3 4) (/ 1 4))") == std::vector<float>{6.5f, 5, 24, 0.25f});
  CHECK(eval_vec("(vec4 (- 3) 0 0 0)") == std::vector<float>{-3, 0, 0, 0});
  CHECK(eval_vec("(+ (vec4 1 2 3 4) 10)") == std::vector<float>{11, 12, 13, 14});
  CHECK(eval_vec("(- 10 (vec4 1 2 3 4))") == std::vector<float>{9, 8, 7, 6});
  CHECK(eval_vec("(* 2 (vec4 1 2 3 4))") == std::vector<float>{2, 4, 6, 8});
  CHECK(eval_vec("(/ (vec4 1 2 3 4) 2)") == std::vector<float>{0.5f, 1, 1.5f, 2});
  CHECK(eval_vec("(* (vec4 1 2 3 4) (vec4 2 2 3 3))") == std::vector<float>{2, 4, 9, 12});
  // mat2 columns (1 2) (3 4): M*v = (1*5+3*6, 2*5+4*6), v*M = (1*5+2*6, 3*5+4*6).
  CHECK(eval_vec("(vec4 (* (mat2 1 2 3 4) (vec2 5 6)) (* (vec2 5 6) (mat2 1 2 3 4)))") ==
        std::vector<float>{1 * 5 + 3 * 6, 2 * 5 + 4 * 6, 1 * 5 + 2 * 6, 3 * 5 + 4 * 6});
  // (A*B) column 0 = A * B's column 0.
  CHECK(eval_vec("(* (* (mat2 1 2 3 4) (mat2 5 6 7 8)) (vec2 1 0))") ==
        std::vector<float>{1 * 5 + 3 * 6, 2 * 5 + 4 * 6});
  CHECK(eval_vec("(* (+ (mat2 1 2 3 4) 1) (vec2 1 0))") == std::vector<float>{2, 3});
  CHECK(eval_vec("(* (* 3 (mat2 1)) (vec2 1 2))") == std::vector<float>{3, 6});

  CHECK_THAT(lv_error("(vec4 (+ (vec2 1) (vec3 1)) 0 1)"), Catch::Contains("'+' cannot combine Vec(2, f) and Vec(3, f)"));
  CHECK_THAT(lv_error("(vec4 (* (mat2 1) (vec3 1)) 1)"), Catch::Contains("'*' cannot combine Mat(2) and Vec(3, f)"));
  CHECK_THAT(lv_error("(vec4 (- true))"), Catch::Contains("'-' negates Num, Vec(n, f) or Mat(n), not Bool"));
  CHECK_THAT(lv_error("(vec4 (+ 1))"), Catch::Contains("'+' takes at least 2 arguments, 1 given"));
  CHECK_THAT(lv_error("(vec4 (- 1 2 3))"), Catch::Contains("'-' takes 1 to 2 arguments, 3 given"));
  CHECK_THAT(lv_error("(vec4 (/ 1 2 3))"), Catch::Contains("'/' takes 2 arguments, 3 given"));
}

TEST_CASE("comparisons and equality") {
  CHECK(lv_type("(< 1 2)") == "Bool");
  CHECK(lv_type("(>= (vec3 1) (vec3 2))") == "Vec(3, b)");
  CHECK(lv_type("(< (vec2 1) 2)") == "Vec(2, b)");
  CHECK(lv_type("(eq 1 2)") == "Bool");
  CHECK(lv_type("(eq true false)") == "Bool");
  CHECK(lv_type("(neq (vec4 1) (vec4 2))") == "Vec(4, b)");
  CHECK(lv_type("(eq (bvec2 true) (bvec2 false))") == "Vec(2, b)");
  struct Case {
    const char* op;
    std::function<bool(float, float)> f;
  };
  const Case cases[] = {{"<", std::less<float>()},         {"<=", std::less_equal<float>()},
                        {">", std::greater<float>()},      {">=", std::greater_equal<float>()},
                        {"eq", std::equal_to<float>()},    {"neq", std::not_equal_to<float>()}};
  for (const Case& c : cases)
    for (auto [a, b] : {std::pair{1.0f, 2.0f}, {2.0f, 2.0f}, {3.0f, 2.0f}}) {
      INFO(c.op << " " << a << " " << b);
      CHECK(lv_value("(vec4 (if (" + std::string(c.op) + " " + num(a) + " " + num(b) + ") 1 0) 0 0 1)") ==
            (c.f(a, b) ? 1.0f : 0.0f));
    }
  // Component-wise on vectors: any-of / all-of reduce.
  CHECK(eval_vec("(vec4 (if (any-of (< (vec3 1 5 3) 2)) 1 0) (if (all-of (< (vec3 1 5 3) 6)) 1 0) "
                 "(if (all-of (eq (vec2 1 2) (vec2 1 3))) 1 0) (if (any-of (neq (vec2 1 2) (vec2 1 3))) 1 0))") ==
        std::vector<float>{1, 1, 0, 1});
  CHECK_THAT(lv_error("(vec4 (if (< true false) 1 0))"), Catch::Contains("'<' cannot compare Bool and Bool"));
  CHECK_THAT(lv_error("(vec4 (if (eq 1 true) 1 0))"), Catch::Contains("'eq' cannot compare Num and Bool"));
  CHECK_THAT(lv_error("(vec4 (if (any-of true) 1 0))"), Catch::Contains("'any-of' takes Vec(n, b), not Bool"));
}

TEST_CASE("logic on booleans and boolean vectors") {
  CHECK(lv_type("(and true false)") == "Bool");
  CHECK(lv_type("(or (bvec2 true) (bvec2 false))") == "Vec(2, b)");
  CHECK(lv_type("(not (bvec3 true false true))") == "Vec(3, b)");
  CHECK(eval_vec("(vec4 (if (all-of (or (bvec2 true false) (bvec2 false false))) 1 0) "
                 "(if (any-of (and (bvec2 true false) (bvec2 false true))) 1 0) "
                 "(if (all-of (not (bvec2 false false))) 1 0) 1)") == std::vector<float>{0, 0, 1, 1});
  // `and` passed as a function value: both operands are already values.
  CHECK(lv_value("(define apply2 (func (f a b) (f a b))) (vec4 (if (apply2 and true false) 1 0) 0 0 1)") == 0.0f);
  CHECK_THAT(lv_error("(vec4 (if (and true 1) 1 0))"), Catch::Contains("'and' expects Bool arguments; argument 2 is Num"));
  CHECK_THAT(lv_error("(vec4 (if (or 1 true) 1 0))"), Catch::Contains("'or' expects Bool or Vec(n, b) arguments, not Num"));
  CHECK_THAT(lv_error("(vec4 (if (and true) 1 0))"), Catch::Contains("'and' takes at least 2 arguments, 1 given"));
}

TEST_CASE("vector constructors") {
  CHECK(lv_type("(vec2 1 2)") == "Vec(2, f)");
  CHECK(lv_type("(vec3 (vec2 1 2) 3)") == "Vec(3, f)");
  CHECK(lv_type("(vec4 1)") == "Vec(4, f)");
  CHECK(lv_type("(bvec3 true)") == "Vec(3, b)");
  CHECK(lv_type("(bvec4 (bvec2 true false) false true)") == "Vec(4, b)");
  CHECK(eval_vec("(vec4 (vec2 1 2) 3 4)") == std::vector<float>{1, 2, 3, 4});
  CHECK(eval_vec("(vec4 1 (vec3 2 3 4))") == std::vector<float>{1, 2, 3, 4});
  CHECK(eval_vec("(vec4 (.x (frag-coord)))") == std::vector<float>(4, 0.5f));
  CHECK(eval_vec("(vec4 (vec4 1 2 3 4))") == std::vector<float>{1, 2, 3, 4});
  CHECK_THAT(lv_error("(vec3 1 2)"), Catch::Contains("vector constructor size mismatch: 'vec3' needs 3 components"));
  CHECK_THAT(lv_error("(vec4 (vec3 1) (vec2 1))"), Catch::Contains("the arguments give 5"));
  CHECK_THAT(lv_error("(vec2 true 1)"), Catch::Contains("'vec2' takes Num or Vec(n, f) arguments, not Bool"));
  CHECK_THAT(lv_error("(vec4 (if (any-of (bvec2 1 true)) 1 0))"), Catch::Contains("'bvec2' takes Bool or Vec(n, b)"));
  CHECK_THAT(lv_error("(vec2 1 2 3)"), Catch::Contains("'vec2' takes 1 to 2 arguments, 3 given"));
}

TEST_CASE("matrix constructors") {
  CHECK(lv_type("(mat2 1 2 3 4)") == "Mat(2)");
  CHECK(lv_type("(mat3 (vec3 1) (vec3 2) (vec3 3))") == "Mat(3)");
  CHECK(lv_type("(mat4 1)") == "Mat(4)");
  CHECK(lv_type("(mat3 (mat4 2))") == "Mat(3)");
  // Columns: (mat2 a b c d) has columns (a b) and (c d).
  CHECK(eval_vec("(vec4 (* (mat2 1 2 3 4) (vec2 1 0)) (* (mat2 1 2 3 4) (vec2 0 1)))") ==
        std::vector<float>{1, 2, 3, 4});
  CHECK(eval_vec("(vec4 (* (mat2 (vec2 1 2) (vec2 3 4)) (vec2 0 1)) (* (mat2 5) (vec2 1 1)))") ==
        std::vector<float>{3, 4, 5, 5});
  CHECK(eval_vec("(* (mat3 (vec2 1 2) 3 4 (vec2 5 6) (vec3 7 8 9)) (vec3 0 1 0))") == std::vector<float>{4, 5, 6});
  // Resizing keeps the upper-left corner; growing fills the identity.
  CHECK(eval_vec("(* (mat2 (mat3 1 2 3 4 5 6 7 8 9)) (vec2 0 1))") == std::vector<float>{4, 5});
  CHECK(eval_vec("(* (mat3 (mat2 1 2 3 4)) (vec3 0 0 1))") == std::vector<float>{0, 0, 1});
  // A run-time diagonal.
  EvalInputs in;
  in.frag_coord = {3, 0, 0, 1};
  CHECK(lv_output("(output 0 (* (mat2 (.x (frag-coord))) (vec2 1 2)))", in) == std::vector<float>{3, 6});
  CHECK_THAT(lv_error("(vec4 (* (mat2 1 2 3) (vec2 1)) 0 0)"), Catch::Contains("matrix constructor size mismatch"));
  CHECK_THAT(lv_error("(vec4 (* (mat2 1 (vec2 2 3) 4) (vec2 1)) 0 0)"), Catch::Contains("must fill 2 whole columns"));
  CHECK_THAT(lv_error("(vec4 (* (mat2 true) (vec2 1)) 0 0)"), Catch::Contains("'mat2' takes Num or Vec(n, f)"));
}

TEST_CASE("swizzles") {
  CHECK(lv_type("(.x (vec3 1 2 3))") == "Num");
  CHECK(lv_type("(.zyx (vec3 1 2 3))") == "Vec(3, f)");
  CHECK(lv_type("(.rgba (vec4 1))") == "Vec(4, f)");
  CHECK(lv_type("(.xy (bvec3 true))") == "Vec(2, b)");
  CHECK(eval_vec("(.wzyx (vec4 1 2 3 4))") == std::vector<float>{4, 3, 2, 1});
  CHECK(eval_vec("(vec4 (.bgr (vec3 1 2 3)) (.a (vec4 5 6 7 8)))") == std::vector<float>{3, 2, 1, 8});
  CHECK(eval_vec("(.xxyy (.xy (frag-coord)))") == std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f});
  CHECK_THAT(lv_error("(vec4 (.z (vec2 1 2)) 0 0 1)"), Catch::Contains("swizzle component 'z' is out of range for Vec(2, f)"));
  CHECK_THAT(lv_error("(vec4 (.x 1) 0 0 1)"), Catch::Contains("a swizzle takes a vector, not Num"));
  // Mixing the xyzw and rgba sets is not a swizzle.
  CHECK_THAT(lv_error("(vec4 (.xg (vec2 1 2)) 0 0)"), Catch::Contains("unbound identifier '.xg'"));
  CHECK_THAT(lv_error("(vec4 (.xyzwx (vec4 1)))"), Catch::Contains("unbound identifier '.xyzwx'"));
}

TEST_CASE("GLSL.std.450 functions of one argument") {
  struct Case {
    const char* name;
    std::function<float(float)> f;
    float x;
  };
  const float pi = static_cast<float>(M_PI);
  const Case cases[] = {
      {"abs", [](float x) { return std::fabs(x); }, -2.5f},
      {"sign", [](float x) { return x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f; }, -2.5f},
      {"floor", [](float x) { return std::floor(x); }, -2.5f},
      {"ceil", [](float x) { return std::ceil(x); }, -2.5f},
      {"trunc", [](float x) { return std::trunc(x); }, -2.7f},
      {"round", [](float x) { return std::round(x); }, 2.7f},
      {"round-even", [](float x) { return std::nearbyint(x); }, 2.5f},
      {"fract", [](float x) { return x - std::floor(x); }, -2.25f},
      {"sqrt", [](float x) { return std::sqrt(x); }, 2.0f},
      {"inverse-sqrt", [](float x) { return 1.0f / std::sqrt(x); }, 4.0f},
      {"exp", [](float x) { return std::exp(x); }, 1.5f},
      {"exp2", [](float x) { return std::exp2(x); }, 1.5f},
      {"log", [](float x) { return std::log(x); }, 1.5f},
      {"log2", [](float x) { return std::log2(x); }, 1.5f},
      {"sin", [](float x) { return std::sin(x); }, 0.5f},
      {"cos", [](float x) { return std::cos(x); }, 0.5f},
      {"tan", [](float x) { return std::tan(x); }, 0.5f},
      {"asin", [](float x) { return std::asin(x); }, 0.5f},
      {"acos", [](float x) { return std::acos(x); }, 0.5f},
      {"atan", [](float x) { return std::atan(x); }, 0.5f},
      {"sinh", [](float x) { return std::sinh(x); }, 0.5f},
      {"cosh", [](float x) { return std::cosh(x); }, 0.5f},
      {"tanh", [](float x) { return std::tanh(x); }, 0.5f},
      {"asinh", [](float x) { return std::asinh(x); }, 0.5f},
      {"acosh", [](float x) { return std::acosh(x); }, 3.0f},
      {"atanh", [](float x) { return std::atanh(x); }, 0.5f},
      {"radians", [pi](float x) { return x * (pi / 180.0f); }, 90.0f},
      {"degrees", [pi](float x) { return x * (180.0f / pi); }, 1.0f},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(lv_type(std::string("(") + c.name + " 1)") == "Num");
    CHECK(lv_type(std::string("(") + c.name + " (vec3 1))") == "Vec(3, f)");
    CHECK(lv_value(std::string("(vec4 (") + c.name + " " + num(c.x) + ") 0 0 1)") == Approx(c.f(c.x)));
    const auto v = eval_vec(std::string("(vec4 (") + c.name + " (vec2 " + num(c.x) + " " + num(c.x * 0.5f) +
                            ")) 0 1)");
    CHECK(v.at(1) == Approx(c.f(c.x * 0.5f)));
    CHECK_THAT(lv_error(std::string("(vec4 (") + c.name + " true) 0 0 1)"),
               Catch::Contains(std::string("'") + c.name + "' takes Num or Vec(n, f), not Bool"));
  }
  CHECK(lv_type("(length (vec3 1))") == "Num");
  CHECK(lv_value("(vec4 (length (vec2 3 4)) 0 0 1)") == 5.0f);
  CHECK(lv_type("(normalize (vec3 1))") == "Vec(3, f)");
  CHECK(eval_vec("(vec4 (normalize (vec2 3 4)) 0 1)") == std::vector<float>{0.6f, 0.8f, 0, 1});
}

TEST_CASE("GLSL.std.450 functions of two and three arguments") {
  CHECK(eval_vec("(vec4 (min 1 2) (max 1 2) (pow 2 3) (atan2 1 2))") ==
        std::vector<float>{1, 2, 8, std::atan2(1.0f, 2.0f)});
  CHECK(eval_vec("(vec4 (step 0.5 0.4) (step 0.5 0.6) (mod 7 3) (mod -1 3))") ==
        std::vector<float>{0, 1, 7.0f - 3.0f * std::floor(7.0f / 3.0f), -1.0f - 3.0f * std::floor(-1.0f / 3.0f)});
  // Broadcast: a Num is repeated to the vector's size.
  CHECK(lv_type("(min (vec3 1) 2)") == "Vec(3, f)");
  CHECK(eval_vec("(max (vec4 1 2 3 4) 2.5)") == std::vector<float>{2.5f, 2.5f, 3, 4});
  CHECK(eval_vec("(step 2.5 (vec4 1 2 3 4))") == std::vector<float>{0, 0, 1, 1});
  CHECK(eval_vec("(clamp (vec4 -1 0.5 2 3) 0 1)") == std::vector<float>{0, 0.5f, 1, 1});
  CHECK(eval_vec("(mix (vec4 0 2 4 8) (vec4 10) 0.5)") == std::vector<float>{5, 6, 7, 9});
  const float t = 0.25f;
  CHECK(eval_vec("(vec4 (smoothstep 0 1 0.25) (fma 2 3 4) 0 1)") ==
        std::vector<float>{t * t * (3 - 2 * t), 2 * 3 + 4, 0, 1});
  CHECK(lv_type("(distance (vec2 1) (vec2 2))") == "Num");
  CHECK(lv_type("(dot (vec3 1) (vec3 2))") == "Num");
  CHECK(eval_vec("(vec4 (distance (vec2 0 0) (vec2 3 4)) (dot (vec3 1 2 3) (vec3 4 5 6)) 0 1)") ==
        std::vector<float>{5, 1 * 4 + 2 * 5 + 3 * 6, 0, 1});
  CHECK(lv_type("(cross (vec3 1) (vec3 2))") == "Vec(3, f)");
  CHECK(eval_vec("(vec4 (cross (vec3 1 0 0) (vec3 0 1 0)) 1)") == std::vector<float>{0, 0, 1, 1});
  // reflect(I, N) = I - 2 dot(N, I) N
  CHECK(eval_vec("(vec4 (reflect (vec2 1 -1) (vec2 0 1)) 0 1)") == std::vector<float>{1, 1, 0, 1});
  // face-forward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N
  CHECK(eval_vec("(vec4 (face-forward (vec2 0 1) (vec2 0 -1) (vec2 0 1)) (face-forward (vec2 0 1) (vec2 0 1) (vec2 0 "
                 "1)))") == std::vector<float>{0, 1, 0, -1});
  // refract with eta 1 leaves the direction unchanged.
  CHECK(lv_type("(refract (vec3 1) (vec3 1) 0.5)") == "Vec(3, f)");
  CHECK(eval_vec("(vec4 (refract (vec2 0.6 -0.8) (vec2 0 1) 1) 0 1)")[0] == Approx(0.6f));

  CHECK_THAT(lv_error("(vec4 (min (vec2 1) (vec3 1)) 0)"), Catch::Contains("'min' takes Num or Vec(n, f) arguments of one size, not Vec(2, f), Vec(3, f)"));
  CHECK_THAT(lv_error("(vec4 (dot (vec2 1) 1) 0 0 1)"), Catch::Contains("'dot' takes arguments of one type, not Vec(2, f), Num"));
  CHECK_THAT(lv_error("(vec4 (cross (vec2 1) (vec2 1)) 0 0 1)"), Catch::Contains("'cross' takes two Vec(3, f)"));
  CHECK_THAT(lv_error("(vec4 (refract (vec2 1) (vec2 1) (vec2 1)) 0 1)"), Catch::Contains("'refract' takes an incident"));
  CHECK_THAT(lv_error("(vec4 (clamp 1 2) 0 0 1)"), Catch::Contains("'clamp' takes 3 arguments, 2 given"));
}

TEST_CASE("matrix functions") {
  CHECK(lv_type("(transpose (mat3 1))") == "Mat(3)");
  CHECK(lv_type("(determinant (mat2 1))") == "Num");
  CHECK(lv_type("(inverse (mat4 2))") == "Mat(4)");
  CHECK(eval_vec("(* (transpose (mat2 1 2 3 4)) (vec2 1 0))") == std::vector<float>{1, 3});
  CHECK(lv_value("(vec4 (determinant (mat2 1 2 3 4)) 0 0 1)") == Approx(1 * 4 - 3 * 2));
  const auto inv = eval_vec("(vec4 (* (inverse (mat2 2 0 0 4)) (vec2 1 1)) 0 1)");
  CHECK(inv[0] == Approx(0.5f));
  CHECK(inv[1] == Approx(0.25f));
  CHECK_THAT(lv_error("(vec4 (determinant (vec2 1)) 0 0 1)"), Catch::Contains("'determinant' takes Mat(n), not Vec(2, f)"));
}

TEST_CASE("frag-coord") {
  CHECK(lv_type("(frag-coord)") == "Vec(4, f)");
  EvalInputs in;
  in.frag_coord = {10, 20, 0.5f, 1};
  CHECK(lv_output("(frag-coord)", in) == std::vector<float>{10, 20, 0.5f, 1});
  CHECK_THAT(lv_error("(frag-coord 1)"), Catch::Contains("'frag-coord' takes 0 arguments, 1 given"));
}

TEST_CASE("each builtin lowers to its IR opcode") {
  // The GLSL.std.450 names and the opcodes of opcode.def they map to.
  const std::pair<const char*, const char*> unary[] = {
      {"abs", "Abs"},       {"sign", "Sign"},         {"floor", "Floor"},       {"ceil", "Ceil"},
      {"trunc", "Trunc"},   {"round", "Round"},       {"round-even", "RoundEven"}, {"fract", "Fract"},
      {"sqrt", "Sqrt"},     {"inverse-sqrt", "InverseSqrt"}, {"exp", "Exp"},     {"exp2", "Exp2"},
      {"log", "Log"},       {"log2", "Log2"},         {"sin", "Sin"},           {"cos", "Cos"},
      {"tan", "Tan"},       {"asin", "Asin"},         {"acos", "Acos"},         {"atan", "Atan"},
      {"sinh", "Sinh"},     {"cosh", "Cosh"},         {"tanh", "Tanh"},         {"asinh", "Asinh"},
      {"acosh", "Acosh"},   {"atanh", "Atanh"},       {"radians", "Radians"},   {"degrees", "Degrees"},
      {"normalize", "Normalize"}, {"length", "Length"}};
  for (auto [name, opcode] : unary) {
    INFO(name);
    const auto op = ir::opcode_from_name(opcode);
    REQUIRE(op);
    CHECK(count_opcode(lv_compile(std::string("(vec4 (") + name + " (.x (frag-coord))) 0 0 1)"), *op) == 1);
  }
  const std::pair<const char*, const char*> binary[] = {
      {"min", "Min"}, {"max", "Max"}, {"pow", "Pow"}, {"atan2", "Atan2"}, {"step", "Step"}, {"mod", "Mod"},
      {"distance", "Distance"}, {"dot", "Dot"}, {"reflect", "Reflect"}};
  for (auto [name, opcode] : binary) {
    INFO(name);
    CHECK(count_opcode(lv_compile(std::string("(vec4 (") + name + " (.x (frag-coord)) (.y (frag-coord))) 0 0 1)"),
                       *ir::opcode_from_name(opcode)) == 1);
  }
  const std::pair<const char*, const char*> ternary[] = {
      {"clamp", "Clamp"}, {"mix", "Mix"}, {"smoothstep", "Smoothstep"}, {"fma", "Fma"}, {"face-forward", "FaceForward"}};
  for (auto [name, opcode] : ternary) {
    INFO(name);
    CHECK(count_opcode(lv_compile(std::string("(vec4 (") + name +
                                  " (.x (frag-coord)) (.y (frag-coord)) (.z (frag-coord))) 0 0 1)"),
                       *ir::opcode_from_name(opcode)) == 1);
  }
  CHECK(count_opcode(lv_compile("(vec4 (refract (.xy (frag-coord)) (.zw (frag-coord)) 0.5) 0 1)"),
                     ir::Opcode::Refract) == 1);
  CHECK(count_opcode(lv_compile("(vec4 (cross (.xyz (frag-coord)) (.yzx (frag-coord))) 1)"), ir::Opcode::Cross) == 1);
  CHECK(count_opcode(lv_compile("(vec4 (determinant (mat2 (.xy (frag-coord)) (.zw (frag-coord)))) 0 0 1)"), ir::Opcode::Determinant) == 1);
  CHECK(count_opcode(lv_compile("(* (transpose (inverse (mat4 (.x (frag-coord))))) (frag-coord))"),
                     ir::Opcode::Inverse) == 1);
  CHECK(count_opcode(lv_compile("(vec4 (if (any-of (< (frag-coord) 1)) 1 0))"), ir::Opcode::Any) == 1);
  CHECK(count_opcode(lv_compile("(vec4 (if (all-of (not (< (frag-coord) 1))) 1 0))"), ir::Opcode::All) == 1);
  CHECK(count_opcode(lv_compile("(* (mat4 (.x (frag-coord))) (frag-coord))"), ir::Opcode::MatrixTimesVector) == 1);
  CHECK(count_opcode(lv_compile("(* (frag-coord) (mat4 (.x (frag-coord))))"), ir::Opcode::VectorTimesMatrix) == 1);
}

TEST_CASE("builtins take values, not functions") {
  CHECK_THAT(lv_error("(vec4 (+ 1 sin) 0 0 1)"), Catch::Contains("argument 2 of '+' is the builtin 'sin'"));
  CHECK_THAT(lv_error("(vec4 (sin (func (x) x)) 0 0 1)"), Catch::Contains("argument 1 of 'sin' is a function"));
}
