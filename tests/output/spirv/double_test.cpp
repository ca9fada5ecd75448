// Doubles from GLSL to SPIR-V: OpTypeFloat 64 with the Float64 capability,
// 64-bit constants as two words (low-order first), float <-> double
// conversions as OpFConvert, std430 offsets of 8-byte components, two
// locations for a dvec4 varying, and Flat on double fragment inputs
// (Vulkan: VUID-StandaloneSpirv-Flat-04744). Every module must pass
// spirv-val.
#include <catch2/catch.hpp>

#include "frontend/glsl/glsl_frontend.h"
#include "spirv_test_util.h"
#include "validator/validator.h"

using namespace sluice;
using testing::count_of;

namespace {

ir::Module compile(const std::string& source, const char* file) {
  glsl_in::Options o;
  o.auto_map_locations = o.auto_map_bindings = true;
  glsl_in::Result r = glsl_in::compile(source, file, o);
  INFO(render(r.diagnostics, source));
  REQUIRE(r.module.has_value());
  const auto problems = validator::validate(*r.module);
  for (const auto& p : problems) UNSCOPED_INFO(validator::describe(*r.module, p));
  REQUIRE(problems.empty());
  return std::move(*r.module);
}

}  // namespace

TEST_CASE("doubles: arithmetic, conversions and a buffer of doubles", "[spirv][double]") {
  const ir::Module m = compile(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { double a; dvec3 v; dmat2 m; float f; int i; double r[4]; };
void main() {
  double x = a * 0.1lf + double(f) - double(i) / 3.0lf;
  dvec3 w = v * x + dvec3(1.0lf, 2.0lf, 1e300);
  r[0] = x;
  r[1] = w.y;
  r[2] = (m * dvec2(w.x, x)).y;
  r[3] = x < a ? 1.0lf : -x;
  f = float(w.z);
  i = int(x);
})", "doubles.comp");
  const testing::Emitted e = testing::emit_checked(m);
  CHECK(count_of(e.text, "OpCapability Float64") == 1);
  CHECK(count_of(e.text, "OpTypeFloat 64") == 1);
  CHECK(count_of(e.text, "OpFConvert") >= 2);
  CHECK(count_of(e.text, "OpConvertSToF") >= 1);
  CHECK(count_of(e.text, "OpConvertFToS") >= 1);
  // 0.1 exactly as binary64: the disassembler prints the 64-bit literal.
  CHECK(count_of(e.text, "OpConstant %double 0.10000000000000001") == 1);
  CHECK(count_of(e.text, "OpConstant %double 1.0000000000000001e+300") == 1);
  // std430: a at 0, v at 32 (a dvec3 aligns as a dvec4), m at 64, f at 96.
  CHECK(count_of(e.text, "OpMemberDecorate %B 1 Offset 32") == 1);
  CHECK(count_of(e.text, "OpMemberDecorate %B 2 Offset 64") == 1);
  CHECK(count_of(e.text, "OpMemberDecorate %B 2 MatrixStride 16") == 1);
  CHECK(count_of(e.text, "OpMemberDecorate %B 3 Offset 96") == 1);
}

TEST_CASE("doubles: varyings take two locations for dvec3 and dvec4 and are flat in fragment shaders",
          "[spirv][double]") {
  const ir::Module vert = compile(R"(#version 450
layout(location = 0) out dvec4 d;
layout(location = 2) out double e;
void main() { d = dvec4(1.0lf); e = 2.0lf; gl_Position = vec4(0.0); })", "doubles.vert");
  testing::emit_checked(vert);
  const ir::Module frag = compile(R"(#version 450
layout(location = 0) flat in dvec4 d;
layout(location = 2) flat in double e;
layout(location = 0) out vec4 color;
void main() { color = vec4(d * e); })", "doubles.frag");
  const testing::Emitted e = testing::emit_checked(frag);
  CHECK(count_of(e.text, "OpDecorate %d Flat") == 1);
  CHECK(count_of(e.text, "OpDecorate %e Flat") == 1);
}
