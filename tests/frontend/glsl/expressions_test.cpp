// Expressions: operators with scalar/vector mixing, compound assignment,
// increments, swizzles read and written, dynamic indexing, constructors,
// conversions, calls with out parameters, built-ins and textures.
#include <fmt/format.h>

#include "glsl_test_util.h"
#include "ir/texture.h"
#include "ir/typing.h"

using namespace sluice;
using namespace sluice::ir;

namespace {

std::string fragment(std::string_view body, std::string_view globals = "") {
  return fmt::format(R"(#version 450
layout(location = 0) in vec4 v;
layout(location = 1) flat in ivec4 iv;
layout(location = 2) flat in int n;
layout(location = 0) out vec4 color;
{}
void main() {{
{}
}}
)",
                     globals, body);
}

// Operands of every arithmetic instruction share one type (docs/ir.md).
void check_operands_agree(const Module& m) {
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    visit(m.function(FunctionId(i)), [&](const BlockVisit&, const Block& b) {
      for (const auto& inst : b.instructions) {
        const TypeRule rule = info(inst.opcode).type_rule;
        if (rule != TypeRule::ArithSame && rule != TypeRule::FloatSame && rule != TypeRule::NumericSame) continue;
        for (const Operand& o : inst.operands) CHECK(m.type_of(o) == m.type_of(inst.operands[0]));
      }
      return VisitAction::VisitSubBlocks;
    });
}

}  // namespace

TEST_CASE("scalars mixed with vectors are splatted, the explicit mixed opcodes stay mixed") {
  const Module m = testing::compile_valid(fragment(R"(
  vec4 a = v + 1.5;
  vec4 b = 2.0 * v;
  ivec4 c = iv * n;
  mat2 mm = mat2(v.xy, v.zw) * 0.5 + 1.0;
  vec2 d = max(v.xy, 0.25) + clamp(v.zw, 0.0, 1.0) + step(0.5, v.xy) + mix(v.xy, v.zw, 0.3);
  color = a + b + vec4(c) + vec4(mm[0], d);)"));
  check_operands_agree(m);
  CHECK(testing::count(m, Opcode::VectorTimesScalar) == 1);
  CHECK(testing::count(m, Opcode::MatrixTimesScalar) == 1);
}

TEST_CASE("compound assignment through a swizzle, and increments, act on pointers") {
  const Module m = testing::compile_valid(fragment(R"(
  vec4 r = v;
  r.yx += vec2(1.0, 2.0);
  r.w *= 3.0;
  int k = n;
  k++;
  --k;
  r[k & 3] = 4.0;
  color = r + vec4(float(k));)"));
  const Function& f = m.function(m.entry_point());
  CHECK(testing::find_all(f, Opcode::AccessVectorComponentMulti).size() == 1);
  CHECK(testing::find_all(f, Opcode::AccessVectorComponentDynamic).size() == 1);
  CHECK(testing::find_all(f, Opcode::PostfixIncrement).size() == 1);
  CHECK(testing::find_all(f, Opcode::PrefixDecrement).size() == 1);
}

TEST_CASE("dynamic indexing of arrays, matrices and buffer members") {
  const Module m = testing::compile_valid(fragment(R"(
  float a[4] = float[4](1.0, 2.0, 3.0, 4.0);
  mat4 mm = mat4(1.0);
  color = vec4(a[n], mm[n][n & 3], buf.values[n + 1], k[n]);)",
                                                   "layout(set = 0, binding = 0) buffer B { float values[]; } buf;\n"
                                                   "const float k[3] = float[3](0.5, 0.25, 0.125);"));
  const Function& f = m.function(m.entry_point());
  CHECK(testing::find_all(f, Opcode::AccessArrayElement).size() == 2);
  CHECK(testing::find_all(f, Opcode::AccessMatrixColumn).size() == 1);
  CHECK(testing::find_all(f, Opcode::ExtractArrayElement).size() == 1);  // the constant array
}

TEST_CASE("constructors of every form") {
  const Module m = testing::compile_valid(fragment(R"(
  vec3 a = vec3(v);            // drops a component
  vec4 b = vec4(v.x);          // splat
  vec4 c = vec4(v.xy, 1.0, n); // mixed, with a conversion
  mat2 d = mat2(v.w);          // diagonal
  mat3 e = mat3(mat4(v, v, v, v)); // resize
  mat2 f = mat2(v);            // from a vector
  ivec2 g = ivec2(v.zw);       // conversion
  bvec2 h = bvec2(iv.xy);
  float i = float(v);          // first component
  S s = S(v.x, iv.xy);
  float arr[2] = float[2](v.x, v.y);
  color = vec4(a, b.x) + c + vec4(d[0], e[0].xy) + vec4(f[1], vec2(g)) + vec4(h.x ? i : 0.0, float(s.j.y), arr[1], 0.0);)",
                                                   "struct S { float f; ivec2 j; };"));
  CHECK(testing::count(m, Opcode::ConstructMatrixFromScalar) == 1);
  CHECK(testing::count(m, Opcode::ConstructMatrixFromMatrix) == 1);
  CHECK(testing::count(m, Opcode::ConstructStruct) == 1);
  CHECK(testing::count(m, Opcode::ConstructArray) == 1);
}

TEST_CASE("calls pass values for in parameters and copy out/inout arguments back") {
  const Module m = testing::compile_valid(fragment(R"(
  vec4 r = v;
  float t;
  int count = n;
  f(r.x, t, count);          // a swizzle goes through a temporary
  f(r[1], r.z, count);
  r.w = f(r.y);
  color = r + vec4(t, float(count), 0.0, 0.0);)",
                                                   R"(void f(in float a, out float b, inout int c) { b = a * 2.0; c += 1; }
float f(float a) { return a; }  // an overload)"));
  CHECK(m.function_count() == 3);
  const Function& main = m.function(m.entry_point());
  auto calls = testing::find_all(main, Opcode::Call);
  REQUIRE(calls.size() == 3);
  CHECK(calls[2].instruction->operands.size() == 2);  // the overload
  calls.pop_back();
  for (const auto& call : calls) {
    const auto& ops = call.instruction->operands;
    REQUIRE(ops.size() == 4);
    CHECK_FALSE(is_pointer(m, m.type_of(ops[1])));  // in: a value
    CHECK(is_pointer(m, m.type_of(ops[2])));        // out: a pointer
    CHECK(is_pointer(m, m.type_of(ops[3])));        // inout: a pointer
  }
  // The first call passes the locals t and count directly.
  CHECK(calls[0].instruction->operands[2].is_variable());
}

TEST_CASE("built-in functions map to IR opcodes, out parameters through temporaries") {
  const Module m = testing::compile_valid(fragment(R"(
  vec4 whole;
  vec4 fr = modf(v, whole);
  ivec4 e;
  vec4 sig = frexp(v, e);
  uint carry;
  uint sum = uaddCarry(uint(n), 7u, carry);
  uint packed = packUnorm4x8(v) + packHalf2x16(v.xy);
  vec4 un = unpackUnorm4x8(packed);
  bvec4 lt = lessThan(v, whole);
  color = fr + sig + un + vec4(sum + carry) + vec4(e) + vec4(lt) + vec4(dot(v, v), length(v.xy), atan(v.x, v.y),
          float(bitCount(n))) + fma(v, v, v) + smoothstep(0.0, 1.0, v) + vec4(floatBitsToInt(v.x));)"));
  CHECK(testing::count(m, Opcode::Modf) == 1);
  CHECK(testing::count(m, Opcode::Frexp) == 1);
  CHECK(testing::count(m, Opcode::UaddCarry) == 1);
  CHECK(testing::count(m, Opcode::PackUnorm4x8) == 1);
  CHECK(testing::count(m, Opcode::PackHalf2x16) == 1);
  CHECK(testing::count(m, Opcode::UnpackUnorm4x8) == 1);
  CHECK(testing::count(m, Opcode::LessThan) == 1);
  CHECK(testing::count(m, Opcode::Atan2) == 1);
  CHECK(testing::count(m, Opcode::Bitcast) == 1);
  check_operands_agree(m);
}

TEST_CASE("mix with a boolean selector is a Select") {
  const Module m =
      testing::compile_valid(fragment("color = mix(v, v.wzyx, bvec4(true, false, iv.x > 0, false));"));
  const auto selects = testing::find_all(m.function(m.entry_point()), Opcode::Select);
  REQUIRE(selects.size() == 1);
  CHECK(m.type_of(selects[0].instruction->operands[0]) == predefined::kBVec4);
}

TEST_CASE("texture functions become Texture with the variant's flags") {
  struct Case {
    const char* call;
    std::uint16_t flags;
  };
  const Case cases[] = {
      {"texture(s2, v.xy)", 0},
      {"texture(s2, v.xy, 0.5)", kTextureBias},
      {"textureProj(s2, v)", kTextureProj},
      {"textureLod(s2, v.xy, 1.0)", kTextureLod},
      {"textureOffset(s2, v.xy, ivec2(1, 2))", kTextureOffset},
      {"textureLodOffset(s2, v.xy, 1.0, ivec2(1))", kTextureLod | kTextureOffset},
      {"textureGrad(s2, v.xy, v.zw, v.wz)", kTextureGrad},
      {"textureProjGradOffset(s2, v.xyz, v.zw, v.wz, ivec2(0, 1))", kTextureProj | kTextureGrad | kTextureOffset},
      {"texelFetch(s2, iv.xy, 0)", kTextureFetch},
      {"texelFetchOffset(s2, iv.xy, 0, ivec2(1))", kTextureFetch | kTextureOffset},
      {"textureGather(s2, v.xy, 2)", kTextureGather},
      {"textureGatherOffset(s2, v.xy, ivec2(1))", kTextureGather | kTextureOffset},
      {"vec4(texture(shadow, v.xyz))", kTextureCompare},
      {"vec4(textureProj(shadow, v))", kTextureCompare | kTextureProj},
      {"textureGather(shadow, v.xy, 0.5)", kTextureGather | kTextureCompare},
      {"vec4(texture(cube_array_shadow, v, 0.5))", kTextureCompare},
      {"texelFetch(ms, iv.xy, 3)", kTextureFetch},
      {"texelFetch(buffer_texture, n)", kTextureFetch},
  };
  const std::string globals = R"(layout(binding = 0) uniform sampler2D s2;
layout(binding = 1) uniform sampler2DShadow shadow;
layout(binding = 2) uniform samplerCubeArrayShadow cube_array_shadow;
layout(binding = 3) uniform sampler2DMS ms;
layout(binding = 4) uniform samplerBuffer buffer_texture;)";
  for (const Case& c : cases) {
    INFO(c.call);
    const Module m = testing::compile_valid(fragment(fmt::format("color = {};", c.call), globals));
    const auto textures = testing::find_all(m.function(m.entry_point()), Opcode::Texture);
    REQUIRE(textures.size() == 1);
    CHECK(textures[0].instruction->aux == c.flags);
    CHECK(textures[0].instruction->operands.size() == texture_operand_count(c.flags));
  }
}

TEST_CASE("a shadow lookup's coordinate leaves out the depth reference, a projective one keeps q last") {
  const Module m = testing::compile_valid(fragment("color = vec4(textureProj(shadow, v));",
                                                   "layout(binding = 1) uniform sampler2DShadow shadow;"));
  const auto textures = testing::find_all(m.function(m.entry_point()), Opcode::Texture);
  REQUIRE(textures.size() == 1);
  CHECK(m.type_of(textures[0].instruction->operands[1]) == predefined::kVec3);  // (s, t, q)
  CHECK(m.type_of(textures[0].instruction->operands[2]) == predefined::kFloat); // dref
}

TEST_CASE("structs copied between a row_major block and a local are converted member by member") {
  const Module m = testing::compile_valid(fragment("S s = ub.s; color = s.m[0] + vec4(s.f);",
                                                   "struct S { mat4 m; float f; };\n"
                                                   "layout(binding = 0, row_major) uniform U { S s; } ub;"));
  CHECK(testing::count(m, Opcode::ConstructStruct) == 1);
  CHECK(testing::count(m, Opcode::ExtractStructField) == 2);
}

TEST_CASE("indexing a swizzle indexes the vector itself") {
  const Module m = testing::compile_valid(fragment(R"(
  vec4 r = v;
  r.xyz[n] = 1.0;     // the identity prefix: r[n]
  r.zyx[n & 1] += 2.0; // through the swizzle's table of components
  color = r + vec4(v.wzyx[n]);)"));
  CHECK(testing::count(m, Opcode::AccessVectorComponentMulti) == 0);
  CHECK(testing::count(m, Opcode::AccessVectorComponentDynamic) == 3);  // r twice, the input v once
  CHECK(testing::count(m, Opcode::ExtractArrayElement) == 2);          // zyx and wzyx tables
}

TEST_CASE("dot of two scalars is their product") {
  const Module m = testing::compile_valid(fragment("color = vec4(dot(v.x, v.y));"));
  CHECK(testing::count(m, Opcode::Dot) == 0);
  CHECK(testing::count(m, Opcode::Mul) == 1);
}

TEST_CASE("constructors of specialization constants stay constants") {
  const Module m = testing::compile_valid(fragment("color = textureLodOffset(s, v.xy, 0.0, ivec2(offs, 1));",
                                                   "layout(constant_id = 1) const int offs = 0;\n"
                                                   "layout(binding = 0) uniform sampler2D s;"));
  const auto textures = testing::find_all(m.function(m.entry_point()), Opcode::Texture);
  REQUIRE(textures.size() == 1);
  const Operand offset = textures[0].instruction->operands.back();
  REQUIRE(offset.is_constant());
  const Constant& c = m.constant(offset.as_constant());
  REQUIRE(c.components.size() == 2);
  CHECK(m.constant(c.components[0]).spec_id == 1u);
}

TEST_CASE("image atomics and invocation votes") {
  const Module m = testing::compile_valid(R"(#version 460
layout(local_size_x = 8) in;
layout(binding = 0, r32ui) uniform uimage2D counters;
layout(binding = 1, std430) buffer Out { uint old; bool any_odd; } result;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  result.old = imageAtomicAdd(counters, p, 1u) + imageAtomicCompSwap(counters, p, 2u, 3u);
  result.any_odd = anyInvocation((gl_LocalInvocationID.x & 1u) == 1u);
}
)",
                                          "votes.comp");
  CHECK(testing::count(m, Opcode::ImageAtomicAdd) == 1);
  CHECK(testing::count(m, Opcode::ImageAtomicCompSwap) == 1);
  CHECK(testing::count(m, Opcode::AnyInvocation) == 1);
}
