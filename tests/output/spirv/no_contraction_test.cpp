// spirv::Options::no_contraction (`--fp-contract=off`): the result of every
// floating-point arithmetic instruction is decorated NoContraction, nothing
// else is, and without the option nothing is. The count is taken from
// spirv-dis text with a list of SPIR-V's floating-point arithmetic opcodes
// kept here, apart from the output's own (contraction.cpp), so an opcode
// either side forgets shows as a difference. The shader uses each of those
// the output can emit (OpFRem has no GLSL source), in float and double, with
// integer arithmetic beside them that must stay undecorated; the bench
// shaders raymarch.frag and particles.comp (the reason for the option,
// docs/ub-check.md) go through the same count with and without ub-check's
// instrumentation. Every module must pass spirv-val.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>

#include "frontend/glsl/glsl_frontend.h"
#include "frontend/lambdav/lambdav.h"
#include "spirv_test_util.h"
#include "transform/pass_manager.h"
#include "transform/ub_check.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

const std::set<std::string>& float_arithmetic() {
  static const std::set<std::string> ops{
      "OpFNegate",           "OpFAdd",           "OpFSub",         "OpFMul",          "OpFDiv",
      "OpFRem",              "OpFMod",           "OpVectorTimesScalar", "OpMatrixTimesScalar", "OpVectorTimesMatrix",
      "OpMatrixTimesVector", "OpMatrixTimesMatrix", "OpOuterProduct", "OpDot"};
  return ops;
}

struct Count {
  std::set<std::string> arithmetic;  // result ids of float arithmetic
  std::set<std::string> decorated;   // ids decorated NoContraction
  std::set<std::string> opcodes;     // the float arithmetic opcodes seen
  int integer_arithmetic = 0;        // OpIAdd, OpISub, OpIMul, OpSDiv, OpUDiv
};

Count count(const std::string& text) {
  Count c;
  static const std::regex result(R"(^\s*(%\w+) = (Op\w+))");
  static const std::regex decoration(R"(^\s*OpDecorate (%\w+) NoContraction\s*$)");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, decoration)) {
      CHECK(c.decorated.insert(m[1]).second);  // at most once per id
    } else if (std::regex_search(line, m, result)) {
      const std::string op = m[2];
      if (float_arithmetic().count(op)) {
        c.arithmetic.insert(m[1]);
        c.opcodes.insert(op);
      }
      if (op == "OpIAdd" || op == "OpISub" || op == "OpIMul" || op == "OpSDiv" || op == "OpUDiv") ++c.integer_arithmetic;
    }
  }
  return c;
}

ir::Module from_glsl(const std::string& source, const char* file) {
  glsl_in::Options o;
  o.auto_map_locations = o.auto_map_bindings = true;
  o.macros = {{"SIZE", "128"}, {"ITER", "2"}};  // bench-run's sizes (docs/performance.md); unused elsewhere
  glsl_in::Result r = glsl_in::compile(source, file, o);
  INFO(render(r.diagnostics, source));
  REQUIRE(r.module.has_value());
  return std::move(*r.module);
}

void optimize(ir::Module& m, const char* level) {
  transform::PassManager pm;
  auto pipeline = pm.pipeline(level);
  REQUIRE(pipeline);
  REQUIRE(pm.run(m, *pipeline));
  const auto problems = validator::validate(m);
  for (const auto& p : problems) UNSCOPED_INFO(validator::describe(m, p));
  REQUIRE(problems.empty());
}

// Emitted with and without the option: every float arithmetic result
// decorated with it, none without; the same code otherwise.
Count check_both(const ir::Module& m, bool promote_to_ssa) {
  spirv::Options off;
  off.promote_to_ssa = promote_to_ssa;
  spirv::Options on = off;
  on.no_contraction = true;
  const Count plain = count(testing::emit_checked(m, off).text);
  const Count strict = count(testing::emit_checked(m, on).text);
  CHECK(plain.decorated.empty());
  CHECK(strict.decorated == strict.arithmetic);
  CHECK(strict.arithmetic.size() == plain.arithmetic.size());
  CHECK(strict.opcodes == plain.opcodes);
  CHECK(!strict.arithmetic.empty());
  return strict;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  INFO("reading " << p);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

constexpr const char* kEveryOperation = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B {
  float a, b, c;
  vec3 v;
  mat3 m, n;
  int i, j;
  uint u;
  double d;
  dvec2 dv;
  float r[8];
  int ir[2];
};
void main() {
  float x = a * b + c;          // OpFMul, OpFAdd
  x -= b / c;                   // OpFDiv, OpFSub
  x = mod(x, a) + -b;           // OpFMod, OpFNegate
  vec3 w = v * x;               // OpVectorTimesScalar
  mat3 p = m * x;               // OpMatrixTimesScalar
  w = w * m + m * v;            // OpVectorTimesMatrix, OpMatrixTimesVector
  p = p * n + outerProduct(v, w) - n;  // OpMatrixTimesMatrix, OpOuterProduct, column by column OpFAdd/OpFSub
  float e = dot(w, v) + dot(a, b);     // OpDot; dot of scalars is OpFMul
  x++;                                 // an increment: OpFAdd
  double y = d * double(x) + dv.x / dv.y;  // double arithmetic is float arithmetic too
  r[0] = x; r[1] = e; r[2] = p[1][2]; r[3] = w.z; r[4] = float(y);
  ir[0] = i * j + int(u) / 3 - i;       // integer arithmetic: never decorated
  ir[1] = j++;
}
)";

}  // namespace

TEST_CASE("no_contraction decorates every float arithmetic result and nothing else", "[spirv][no-contraction]") {
  ir::Module m = from_glsl(kEveryOperation, "every_operation.comp");
  for (bool ssa : {false, true}) {
    INFO("promote_to_ssa " << ssa);
    const Count c = check_both(m, ssa);
    std::set<std::string> expected = float_arithmetic();
    expected.erase("OpFRem");  // GLSL's mod is OpFMod; nothing in GLSL makes OpFRem
    CHECK(c.opcodes == expected);
    CHECK(c.integer_arithmetic >= 4);
  }
  optimize(m, "O1");
  check_both(m, true);
}

TEST_CASE("no_contraction on a λV program and the bench shaders, plain and instrumented", "[spirv][no-contraction]") {
  SECTION("λV") {
    auto r = lambdav::compile(read(std::filesystem::path(SLUICE_EXAMPLES_DIR) / "gradient.lv"), {});
    REQUIRE(r.ok());
    optimize(*r.module, "O1");
    check_both(*r.module, true);
  }
  const std::filesystem::path bench = std::filesystem::path(SLUICE_EXAMPLES_DIR) / ".." / "bench" / "gpu";
  for (const char* name : {"raymarch.frag", "particles.comp"}) {
    for (bool ub_check : {false, true}) {
      INFO(name << (ub_check ? " with ub-check" : ""));
      ir::Module m = from_glsl(read(bench / name), name);
      if (ub_check) {
        auto checked = transform::ub_check(m, {});
        INFO((checked ? std::string() : checked.error()));
        REQUIRE(checked);
      }
      optimize(m, "O1");
      check_both(m, true);
    }
  }
}
