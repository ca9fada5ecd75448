// The forms the output writes so that the GLSL front end lowers them to the
// same IR again (source_forms.h and docs/ir.md "GLSL output"): each source
// goes GLSL → IR → GLSL → IR, the text must show the form, and the two IR
// dumps must be equal up to names (canonical_dump.h).
#if SLUICE_HAVE_GLSL_FRONTEND

#include <catch2/catch.hpp>

#include "canonical_dump.h"
#include "frontend/glsl/glsl_frontend.h"
#include "glsl_test_util.h"

using namespace sluice;

namespace {

const char* const kHeader = R"(#version 450
layout(location = 0) out vec4 color;
layout(location = 0) in vec4 v_in;
layout(location = 1) flat in int n;
)";

// Returns the emitted text after checking that it compiles and that its IR
// equals the source's.
std::string round_trip(const std::string& body) {
  const std::string source = kHeader + body;
  INFO(source);
  glsl::Result first = glsl::compile(source, "forms.frag", glsl::Options{});
  INFO(render(first.diagnostics, source));
  REQUIRE(first.module.has_value());
  const std::string text = testing::emit_and_compile(*first.module);
  glsl::Result second = glsl::compile(text, "forms.frag", glsl::Options{});
  INFO(text);
  REQUIRE(second.module.has_value());
  CHECK(testing::canonical_dump(ir::dump(*first.module)) == testing::canonical_dump(ir::dump(*second.module)));
  return text;
}

}  // namespace

TEST_CASE("front-end forms: a scalar stands for a vector where GLSL lets it") {
  const std::string text = round_trip(R"(void main() {
    vec2 v = v_in.xy;
    float s = v_in.z;
    v.x += 1.0;
    v -= s;
    ivec2 i = ivec2(n) % n;
    color = vec4(clamp(v, s, 1.0 + s), s - v);
})");
  testing::position_of(text, "-= s");
  testing::position_of(text, "% n");
  testing::position_of(text, "clamp(v, s, 1.0 + s)");
}

TEST_CASE("front-end forms: out and inout arguments are written in place, calls in one expression stay there") {
  const std::string text = round_trip(R"(float a[4];
void twice(inout float x) { x *= 2.0; }
float f() { a[1] += 1.0; return a[1]; }
float g() { a[1] *= 3.0; return a[1]; }
void main() {
    uint carry;
    uint sums[2];
    sums[n] = uaddCarry(uint(n), 7u, carry);
    twice(a[n]);
    color = vec4(float(carry), a[n], f(), g());
})");
  testing::position_of(text, "uaddCarry(uint(n), 7u, carry)");
  testing::position_of(text, "twice(a[n])");
  testing::position_of(text, "a[n], f(), g())");
}

TEST_CASE("front-end forms: constants, declarations, steps and calls keep the front end's order") {
  const std::string text = round_trip(R"(void later(out vec4 c);
void main() {
    float arr[3];
    arr[0] = 1.0 / 0.0;
    int k = 0;
    for (int i = 0; i < n; 1) { k += i; if (k > 9) break; }
    vec4 w = v_in;
    float(w[n]);
    color = vec4(vec4(w)[n], arr[0], float(k), mix(0.0, 1.0, k > 3));
    later(color);
}
void later(out vec4 c) { c = vec4(1.0); }
)");
  testing::position_of(text, "(1.0 / 0.0)");
  CHECK(testing::position_of(text, "arr[0] =") < testing::position_of(text, "int k = 0;"));
  testing::position_of(text, "float(w[n]);");
  testing::position_of(text, "vec4(w)[n]");
  testing::position_of(text, "mix(0.0, 1.0, k > 3)");
  CHECK(testing::position_of(text, "void later(out vec4 c);") < testing::position_of(text, "void main()"));
}

#endif  // SLUICE_HAVE_GLSL_FRONTEND
