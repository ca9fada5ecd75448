// Doubles through GLSL -> IR -> GLSL -> IR: the text spells double, dvecN,
// dmatCxR and `lf` literals (GLSL 4.60 §4.1.4), never rounds a constant
// through float, glslang compiles it to spirv-val-clean SPIR-V, and the IR
// read back is the first one up to numbering (canonical_dump.h).
#include <catch2/catch.hpp>

#include "canonical_dump.h"
#include "frontend/glsl/glsl_frontend.h"
#include "glsl_test_util.h"

using namespace sluice;

namespace {

ir::Module compile(const std::string& source, const char* file) {
  glsl_in::Options o;
  o.auto_map_locations = o.auto_map_bindings = true;
  glsl_in::Result r = glsl_in::compile(source, file, o);
  INFO(source << "\n" << render(r.diagnostics, source));
  REQUIRE(r.module.has_value());
  return std::move(*r.module);
}

void round_trip(const std::string& source, const char* file, std::initializer_list<const char*> spelled) {
  const ir::Module first = compile(source, file);
  const std::string text = testing::emit_and_compile(first);
  INFO(text);
  for (const char* s : spelled) CHECK(text.find(s) != std::string::npos);
  const ir::Module second = compile(text, file);
  CHECK(testing::canonical_dump(ir::dump(second)) == testing::canonical_dump(ir::dump(first)));
}

}  // namespace

TEST_CASE("doubles: arithmetic and conversions round-trip through GLSL", "[glsl][double]") {
  round_trip(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { double a; dvec3 v; dmat2x3 m; float f; int i; uint u; double r[4]; };
void main() {
  double x = a * 0.1lf + double(f) - double(i) / 3.0lf + double(u);
  dvec3 w = v * x + dvec3(1.0lf, 2.0lf, 1e300lf);
  r[0] = x;
  r[1] = w.y;
  r[2] = (m * dvec2(w.x, x)).z;
  r[3] = x < a ? 1.0000000000000002lf : -x;
  f = float(w.z);
  i = int(x);
  u = uint(abs(x));
})",
             "doubles.comp", {"double ", "dvec3", "dmat2x3", "0.1lf", "1e+300lf", "1.0000000000000002lf"});
}

TEST_CASE("doubles: flat double varyings round-trip through GLSL", "[glsl][double]") {
  round_trip(R"(#version 450
layout(location = 0) flat in dvec4 d;
layout(location = 2) flat in double e;
layout(location = 0) out vec4 color;
void main() { color = vec4(d * e); })",
             "doubles.frag", {"flat in dvec4", "flat in double"});
}
