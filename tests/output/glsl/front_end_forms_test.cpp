// The forms the output writes so that the GLSL front end lowers them to the
// same IR again (source_forms.h and docs/ir.md "GLSL output"): each source
// goes GLSL → IR → GLSL → IR, the text must show the form, and the two IR
// dumps must be equal up to names (canonical_dump.h).

#include <catch2/catch.hpp>
#include <fmt/format.h>

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

struct RoundTrip {
  ir::Module first, second;
  std::string text;
};

// Checks that the text compiles and that its IR equals the source's.
RoundTrip round_trip_source(const std::string& source, const std::string& file) {
  INFO(source);
  glsl_in::Result first = glsl_in::compile(source, file, glsl_in::Options{});
  INFO(render(first.diagnostics, source));
  REQUIRE(first.module.has_value());
  const std::string text = testing::emit_and_compile(*first.module);
  glsl_in::Result second = glsl_in::compile(text, file, glsl_in::Options{});
  INFO(text);
  REQUIRE(second.module.has_value());
  CHECK(testing::canonical_dump(ir::dump(*first.module)) == testing::canonical_dump(ir::dump(*second.module)));
  return {std::move(*first.module), std::move(*second.module), text};
}

// The same for a fragment shader's body after kHeader; returns the text.
std::string round_trip(const std::string& body) { return round_trip_source(kHeader + body, "forms.frag").text; }

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

// GLSL converts an out argument from the parameter's type to the
// argument's (int to uint or float, uint to float); glslang lowers the call
// through tempArg/tempReturn temporaries, which the text must not name.
TEST_CASE("front-end forms: out arguments of another type are written in place") {
  const std::string text = round_trip(R"(int split(float a, out int whole, out ivec2 parts) {
    whole = int(a);
    parts = ivec2(n, 2);
    return whole + 1;
}
void counts(out int signed_count, out uint unsigned_count) { signed_count = n; unsigned_count = 3u; }
void main() {
    float whole;
    vec2 parts;
    uint u;
    float f;
    float sum = 2.0 * split(v_in.x, whole, parts);
    split(v_in.y, whole, parts);
    counts(u, f);
    color = vec4(sum + whole, parts.x, float(u) + f, parts.y);
})");
  testing::position_of(text, "split(v_in.x, whole, parts))");
  testing::position_of(text, "split(v_in.y, whole, parts);");
  testing::position_of(text, "counts(u, f);");
  CHECK(text.find("tempReturn") == std::string::npos);
  CHECK(text.find("tempArg") == std::string::npos);
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

TEST_CASE("front-end forms: a block whose members differ in interpolation, constants no statement keeps") {
  const RoundTrip r = round_trip_source(std::string(kHeader) + R"(layout(location = 2) in Vertex { vec4 tint; flat int id; } v;
layout(constant_id = 7) const int k = 2;
void main() {
    ivec2[2](ivec2(k, k), ivec2(k, k));
    color = v.tint * float(v.id);
})",
                                        "forms.frag");
  // The block is split into its members, and its struct type not made.
  testing::position_of(r.text, "in vec4 v_tint;");
  testing::position_of(r.text, "flat in int v_id;");
  for (const ir::Module* m : {&r.first, &r.second})
    for (std::uint32_t i = 0; i < m->type_count(); ++i) CHECK(m->type(ir::TypeId(i)).name != "Vertex");
  // The folded constructor is an ivec2[2] constant only the first IR holds
  // (as glslang's SPIR-V holds its OpSpecConstantComposite); nothing uses
  // it, so the comparison above leaves it out. `k`, which nothing else
  // uses, is still the pipeline's to set: the text declares it, and the
  // front end keeps it.
  CHECK(ir::dump(r.first).find("Array of") != std::string::npos);
  CHECK(ir::dump(r.second).find("Array of") == std::string::npos);
  testing::position_of(r.text, "layout(constant_id = 7) const int");
  CHECK(ir::dump(r.second).find("[spec_id=7]") != std::string::npos);
}

TEST_CASE("front-end forms: xfb_stride of built-in outputs in a redeclared gl_PerVertex") {
  // The stride declared for the buffer (glslang records it for the buffer,
  // not the block), and one on a member; glslang ignores a stride on the
  // redeclared block itself, so the output writes it on a member.
  for (const auto& [declaration, stride] : std::vector<std::pair<std::string, std::uint32_t>>{
           {R"(layout(xfb_buffer = 1, xfb_stride = 64) out;
layout(xfb_buffer = 1, xfb_offset = 16) out gl_PerVertex { float gl_PointSize; vec4 gl_Position; };
)",
            64},
           {R"(layout(xfb_buffer = 1, xfb_offset = 16) out gl_PerVertex { layout(xfb_stride = 80) vec4 gl_Position; };
)",
            80}}) {
    const RoundTrip r = round_trip_source("#version 450\n" + declaration + R"(void main() {
    gl_Position = vec4(1.0);
})",
                                          "forms.vert");
    testing::position_of(r.text, fmt::format("layout(xfb_stride = {}, xfb_offset = ", stride));
    const ir::Variable* position = nullptr;
    for (ir::VariableId g : r.second.globals())
      if (r.second.variable(g).decorations.built_in == "Position") position = &r.second.variable(g);
    REQUIRE(position);
    CHECK(position->decorations.xfb_buffer == 1u);
    CHECK(position->decorations.xfb_stride == stride);
  }
}

TEST_CASE("front-end forms: member precisions are stated, conversions take their context's precision") {
  const RoundTrip r = round_trip_source(R"(#version 450
precision mediump int;
layout(location = 0) out vec4 color;
layout(location = 1) flat in int n;
layout(std140, binding = 0) uniform Params { mediump float scale; lowp vec2 bias; float plain; };
struct Light { mediump vec3 tint; float range; };
Light light;
void main() {
    light.range = plain;
    int m = n + 1;
    color = vec4(scale) + vec4(bias, plain, 1.0) + vec4(light.tint, light.range) + vec4(int(m));
})",
                                        "members.frag");
  testing::position_of(r.text, "mediump float scale;");
  testing::position_of(r.text, "lowp vec2 bias;");
  testing::position_of(r.text, "mediump vec3 tint;");
  // m is mediump, its conversion highp (vec4(int(m)) leaves it to the context).
  testing::position_of(r.text, "float(int(m))");
  ir::TypeId params_id;
  for (std::uint32_t i = 0; i < r.second.type_count(); ++i)
    if (r.second.type(ir::TypeId(i)).name == "Params") params_id = ir::TypeId(i);
  REQUIRE(params_id.valid());
  const ir::Type& params = r.second.type(params_id);
  REQUIRE(params.members.size() == 3);
  CHECK(params.members[0].precision == ir::Precision::Medium);
  CHECK(params.members[1].precision == ir::Precision::Low);
  CHECK(params.members[2].precision == ir::Precision::High);
}

TEST_CASE("front-end forms: an Extract from an assigned constant is spelled on the assignment") {
  // `S(...).b[2].y` alone is folded by glslang; the source's IR extracts
  // from the constant the assignment yields. (After the ?:, in a block
  // after the entry, the assignment is a Store, not t's initializer.)
  const std::string text = round_trip(R"(struct S { int a; vec2 b[3]; };
void main() {
    S t;
    float x = v_in.x > 0.5 ? v_in.y : v_in.z;
    x += (t = S(1, vec2[3](vec2(2.0), vec2(3.0), vec2(4.0, 5.0)))).b[2].y;
    color = vec4(x, float(t.a), 0.0, 1.0);
})");
  testing::position_of(text, "x += (t = S(1, ");
}

TEST_CASE("front-end forms: a ?: for step stays the step") {
  // Its continue chain has several blocks but writes no statement.
  const std::string text = round_trip(R"(void main() {
    int k = 0;
    for (int i = 0; i < n; v_in.x > 0.5 ? i++ : n) {
        k += i;
        if (k > 10) continue;
        k++;
    }
    color = vec4(float(k));
})");
  testing::position_of(text, "? i++ : n) {");
}

TEST_CASE("front-end forms: a load is named before a call only where the callee may change it") {
  // `s * v + f()` keeps its order only in one expression, or with s named
  // first. keep() writes no global (its out argument is the caller's
  // business); through() writes g, through bump().
  const std::string text = round_trip(R"(float g = 2.0;
float h = 3.0;
float keep(out float x) { x = h; return h + 1.0; }
void bump() { g += 1.0; }
float through() { bump(); return 1.0; }
void main() {
    float o;
    color = g * v_in + keep(o);
    color += g * v_in + through() + o;
})");
  testing::position_of(text, "g * v_in + keep(o)");
  CHECK(text.find("g * v_in + through()") == std::string::npos);
}

TEST_CASE("front-end forms: a shadow or projective coordinate is the source's vector") {
  // The front end takes c3 apart into coordinate and depth reference, and
  // c4 into its x, y and w; the text gives the vectors back once each.
  const std::string text = round_trip(R"(layout(binding = 1) uniform sampler2DShadow shadow;
layout(binding = 2) uniform sampler2D plain;
layout(location = 2) in vec3 c3;
layout(location = 3) in vec4 c4;
void main() {
    color = vec4(textureLod(shadow, c3, 0.0), textureProj(plain, c4).xy, texture(shadow, c3 + 1.0));
})");
  testing::position_of(text, "textureLod(shadow, c3, 0.0)");
  testing::position_of(text, "textureProj(plain, c4)");
  testing::position_of(text, "texture(shadow, c3 + vec3(1.0))");
}

TEST_CASE("front-end forms: ?: on structs and arrays not read from a laid-out block stays ?:") {
  // glslang copies correctly between operands of the same SPIR-V type:
  // inputs, shared, locals and constructors (spv.1.4.OpSelect.frag); only an
  // operand read from a buffer, uniform block or push constant is laid out
  // (spirv-val checks every text here).
  const std::string comp = R"(#version 450
layout(local_size_x = 1) in;
struct S { uint a; uint b; };
layout(std430, binding = 0) buffer B { uint n; S d[4]; uint arr[2]; } b;
shared S sh[4];
void main() {
    S l = S(1u, 2u);
    uint la[2] = uint[2](3u, 4u);
    S x = b.n > 0u ? sh[1] : l;
    uint y[2] = b.n > 1u ? la : uint[2](5u, b.n);
    b.d[1] = x;
    b.arr = y;
}
)";
  const std::string text = round_trip_source(comp, "forms.comp").text;
  testing::position_of(text, "? sh[1] : l;");
  testing::position_of(text, "? la : uint[2](5u, b.n);");
  const std::string frag = std::string(kHeader) + R"(struct P { float a; int b; };
layout(location = 2) flat in P p1;
layout(location = 4) flat in P p2;
void main() {
    P q = n > 5 ? p1 : p2;
    color = vec4(q.a);
})";
  testing::position_of(round_trip_source(frag, "forms.frag").text, "n > 5 ? p1 : p2;");
}

TEST_CASE("front-end forms: a ?: of names or constants stays in place beside sampler2D(t, s)") {
  // glslang makes such a ?: an OpSelect, so the OpSampledImage and its use
  // share a block; a ?: that branches (texCoord.xy, spv.sampledImageBlock.frag)
  // is named first instead (spirv-val checks the text).
  const std::string text = round_trip(R"(layout(set = 0, binding = 0) uniform texture2D tex0;
layout(set = 0, binding = 1) uniform sampler samp0;
layout(location = 2) flat in ivec2 tc1;
layout(location = 3) flat in ivec2 tc2;
void main() {
    color = texelFetch(sampler2D(tex0, samp0), n == 0 ? tc1 : tc2, 0);
    color += texelFetch(sampler2D(tex0, samp0), n == 1 ? tc1 : ivec2(1, 2), 0);
})");
  testing::position_of(text, "texelFetch(sampler2D(tex0, samp0), n == 0 ? tc1 : tc2, 0)");
  testing::position_of(text, "texelFetch(sampler2D(tex0, samp0), n == 1 ? tc1 : ivec2(1, 2), 0)");
}

