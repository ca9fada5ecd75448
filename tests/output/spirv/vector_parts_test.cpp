// Swizzles and constant components of a local vector (`v.zx += …`,
// `v.x = …`, `… = v.wzy`, `v.yw.y = …`) do not keep the vector in memory:
// the SPIR-V output promotes it like a variable only loaded and stored
// whole, reading components with OpVectorShuffle / OpCompositeExtract and
// writing them with OpVectorShuffle / OpCompositeInsert
// (src/output/spirv/function_emitter.cpp, collect_variables). A dynamic
// component index or a component passed to an out parameter still needs
// the memory. Each module runs in the SPIR-V interpreter, promoted and in
// memory, against the value computed here.
#include <bit>
#include <string>

#include <catch2/catch.hpp>

#include "glsl_fragment.h"
#include "spirv_interpreter.h"

using namespace sluice;

namespace {

// Promoted and in memory, every target.
std::vector<testing::Emitted> emit_glsl(const std::string& source) { return testing::emit_glsl_fragment(source); }

testing::Words floats(std::initializer_list<float> values) {
  testing::Words w;
  for (float f : values) w.push_back(std::bit_cast<std::uint32_t>(f));
  return w;
}

std::size_t function_variables(const std::string& text) {
  return testing::count_of(text, "OpVariable %_ptr_Function");
}

}  // namespace

TEST_CASE("vector parts: swizzled and component reads and writes of a local vector promote it") {
  const std::string source = R"(#version 450
layout(location = 0) flat in vec4 a;
layout(location = 0) out vec4 o;
void main() {
  vec4 v = a;
  v.x = v.x + v.y;
  v.zx += vec2(1.0, 2.0);
  vec3 w = v.wzy;
  v.yw.y = w.x * 3.0;
  if (a.x > 0.0) v.y = -v.y;
  o = v + vec4(w, 0.0);
})";
  // The same steps on the host, for a = (1, 2, 3, 4) and a = (-1, 2, 3, 4).
  auto expected = [](float x, float y, float z, float ww) {
    float v[4] = {x, y, z, ww};
    v[0] = v[0] + v[1];
    v[2] += 1.0f;
    v[0] += 2.0f;
    const float w[3] = {v[3], v[2], v[1]};
    v[3] = w[0] * 3.0f;
    if (x > 0.0f) v[1] = -v[1];
    return floats({v[0] + w[0], v[1] + w[1], v[2] + w[2], v[3]});
  };
  const auto emitted = emit_glsl(source);
  std::size_t promoted = 0;
  for (const auto& e : emitted) {
    INFO(e.text);
    if (function_variables(e.text) == 0) {
      ++promoted;
      CHECK(testing::count_of(e.text, "OpCompositeInsert") >= 1);  // v.x = …
    }
    for (float x : {1.0f, -1.0f}) {
      const auto run = testing::run_spirv(e.words, {{"a", floats({x, 2.0f, 3.0f, 4.0f})}});
      INFO(run.error);
      REQUIRE(run.ok);
      CHECK(run.outputs.at("o") == expected(x, 2.0f, 3.0f, 4.0f));
    }
  }
  CHECK(promoted == emitted.size() / 2);  // every promoting variant, none of the others
}

TEST_CASE("vector parts: a dynamic component index keeps the vector in memory") {
  const std::string source = R"(#version 450
layout(location = 0) flat in vec4 a;
layout(location = 1) flat in int i;
layout(location = 0) out vec4 o;
void main() {
  vec4 v = a;
  v.y = 5.0;
  v[i] = 7.0;
  o = v;
})";
  for (const auto& e : emit_glsl(source)) {
    INFO(e.text);
    CHECK(function_variables(e.text) == 1);
    const auto run = testing::run_spirv(e.words, {{"a", floats({1.0f, 2.0f, 3.0f, 4.0f})}, {"i", {2}}});
    INFO(run.error);
    REQUIRE(run.ok);
    CHECK(run.outputs.at("o") == floats({1.0f, 5.0f, 7.0f, 4.0f}));
  }
}

TEST_CASE("vector parts: a component passed to an out parameter keeps the vector in memory") {
  const std::string source = R"(#version 450
layout(location = 0) flat in vec4 a;
layout(location = 0) out vec4 o;
void set(out float f) { f = 9.0; }
void main() {
  vec4 v = a;
  v.zw = v.xy;
  set(v.y);
  o = v;
})";
  for (const auto& e : emit_glsl(source)) {
    INFO(e.text);
    CHECK(testing::count_of(e.text, "OpFunctionCall") == 1);
    const auto run = testing::run_spirv(e.words, {{"a", floats({1.0f, 2.0f, 3.0f, 4.0f})}});
    INFO(run.error);
    REQUIRE(run.ok);
    CHECK(run.outputs.at("o") == floats({1.0f, 9.0f, 1.0f, 2.0f}));
  }
}
