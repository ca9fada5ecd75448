// The report's own programs (the λV report, docs/lambdav.md):
// the yellow shader of section 1.1, nat-fold with its non-recursive wrapper
// and the self-applying sumup of section 5, and the frag-coord shader of
// the original compiler's examples.
#include <catch2/catch.hpp>

#include "ir/predefined.h"
#include "lambdav_test_support.h"

using namespace sluice;
using namespace sluice::testing;

TEST_CASE("report 1.1: yellow is one store of one constant") {
  const ir::Module m = lv_compile("(vec4 1.0 1.0 0.0 1.0)");
  const ir::Function& f = main_function(m);
  REQUIRE(m.function_count() == 1);
  const auto& ins = f.block(f.entry).instructions;
  REQUIRE(ins.size() == 2);
  CHECK(ins[0].opcode == ir::Opcode::Store);
  CHECK(ins[1].opcode == ir::Opcode::Return);
  const ir::Constant& c = m.constant(ins[0].operands[1].as_constant());
  using namespace ir::predefined;
  CHECK(c.type == kVec4);
  CHECK(c.components == std::vector<ir::ConstantId>{kFloatOne, kFloatOne, kFloatZero, kFloatOne});
  CHECK(evaluate(m).at(0) == std::vector<float>{1, 1, 0, 1});
}

TEST_CASE("report 5: nat-fold, a rec-func given a function through a wrapper") {
  // The report's text (its layout kept) with its `...` filled in by an
  // application. The report's snippet closes the bindings of the inner let
  // one parenthesis short; the fourth ')' after the if is that one.
  const std::string src =
      "(let ((nat-fold (func (n accum f) (\n"
      "  let ((body (rec-func (n accum) (\n"
      "    if (eq n 0)\n"
      "      accum\n"
      "      (rec (- n 1) (f accum n))\n"
      "    ))))\n"
      "    (body n accum)\n"
      "  ))))\n"
      "  (vec4 (nat-fold 10 0 +) (nat-fold 4 1 *) 0 1))";
  float sum = 0, product = 1;
  for (int n = 10; n > 0; --n) sum += static_cast<float>(n);
  for (int n = 4; n > 0; --n) product *= static_cast<float>(n);
  const ir::Module m = lv_compile(src);
  CHECK(evaluate(m).at(0) == std::vector<float>{sum, product, 0, 1});
  CHECK(count_opcode(m, ir::Opcode::Loop) == 2);
}

TEST_CASE("report 5: a rec-func cannot take a function parameter directly") {
  CHECK_THAT(lv_error("(vec4 ((rec-func (n f) (if (eq n 0) n (rec (- n 1) f))) 3 sin) 0 0 1)"),
             Catch::Contains("argument 2 of a rec-func is the builtin 'sin'"));
}

TEST_CASE("report 5: the self-applying sumup is an error, not a stack overflow") {
  const std::string out = lv_error(
      "(let\n"
      "  ((sumup (func (self n)\n"
      "    (if (eq n 0) 0 (+ n (self self (- n 1)))))))\n"
      "  (sumup sumup 10))");
  CHECK_THAT(out, Catch::Contains("test.lv:3:25: error: recursion through func"));
}

TEST_CASE("the original compiler's frag-coord example") {
  EvalInputs in;
  in.frag_coord = {100, 50, 0.25f, 1};
  CHECK(lv_output("(output 0 (* (vec4 0.01 0.01 1.0 1.0) (frag-coord)))", in) ==
        std::vector<float>{0.01f * 100, 0.01f * 50, 0.25f, 1});
}
