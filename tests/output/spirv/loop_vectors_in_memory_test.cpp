// The loop-vectors-in-memory driver workaround (spirv::Options::
// loop_vectors_in_memory, docs/workarounds.md; lavapipe, run time): a vector
// variable that promotion would carry through an OpPhi in a loop header
// stays in Function memory; scalars, and vectors no loop carries, are
// promoted as without it. The module computes the same in the SPIR-V
// interpreter both ways.
#include <bit>
#include <string>

#include <catch2/catch.hpp>

#include "glsl_fragment.h"
#include "spirv_interpreter.h"

using namespace sluice;

namespace {

// A Mandelbrot-like loop: `z` (vec2) and `n` (int) are loop-carried, `c`
// (vec2) is not.
const char* kLoop = R"(#version 450
layout(location = 0) flat in vec2 a;
layout(location = 0) out vec4 o;
void main() {
  vec2 c = a * 0.5;
  vec2 z = vec2(0.0);
  int n = 0;
  for (; n < 20; ++n) {
    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    if (dot(z, z) > 4.0) break;
  }
  o = vec4(z, float(n), c.x);
})";

testing::Words floats(std::initializer_list<float> values) {
  testing::Words w;
  for (float f : values) w.push_back(std::bit_cast<std::uint32_t>(f));
  return w;
}

// The same steps on the host.
testing::Words expected(float ax, float ay) {
  const float cx = ax * 0.5f, cy = ay * 0.5f;
  float zx = 0.0f, zy = 0.0f;
  int n = 0;
  for (; n < 20; ++n) {
    const float nx = zx * zx - zy * zy + cx, ny = 2.0f * zx * zy + cy;
    zx = nx;
    zy = ny;
    if (zx * zx + zy * zy > 4.0f) break;
  }
  return floats({zx, zy, static_cast<float>(n), cx});
}

}  // namespace

TEST_CASE("loop-vectors-in-memory keeps a loop-carried vector in memory and promotes the rest") {
  const ir::Module m = testing::glsl_fragment_module(kLoop);
  spirv::Options worked;
  worked.loop_vectors_in_memory = true;
  const testing::Emitted plain = testing::emit_checked(m);
  const testing::Emitted kept = testing::emit_checked(m, worked);
  INFO(plain.text);
  INFO(kept.text);
  // Without it: no Function variable; `z` is a phi in the header (and one
  // in the merge block, where the break and the header's exit meet).
  CHECK(testing::count_of(plain.text, "OpVariable %_ptr_Function") == 0);
  CHECK(testing::count_of(plain.text, "OpPhi %v2float") == 2);
  // With it: `z` alone is a variable; `n` is still a phi, `c` a value.
  CHECK(testing::count_of(kept.text, "OpVariable %_ptr_Function") == 1);
  CHECK(testing::count_of(kept.text, "%z = OpVariable %_ptr_Function_v2float") == 1);
  CHECK(testing::count_of(kept.text, "OpPhi %v2float") == 0);
  CHECK(testing::count_of(kept.text, "OpPhi %int") == 1);
  for (const auto& [x, y] : {std::pair{0.5f, 0.25f}, std::pair{3.0f, 1.0f}, std::pair{-1.5f, 0.0f}})
    for (const testing::Emitted* e : {&plain, &kept}) {
      const auto run = testing::run_spirv(e->words, {{"a", floats({x, y})}});
      INFO(run.error);
      REQUIRE(run.ok);
      CHECK(run.outputs.at("o") == expected(x, y));
    }
}

TEST_CASE("loop-vectors-in-memory changes nothing without a loop-carried vector") {
  const ir::Module m = testing::glsl_fragment_module(R"(#version 450
layout(location = 0) flat in vec2 a;
layout(location = 0) out vec4 o;
void main() {
  vec2 c = a;
  float s = 0.0;
  for (int i = 0; i < 4; ++i) s += c.x * float(i);
  if (a.y > 0.0) c = c.yx;
  o = vec4(c, s, 1.0);
})");
  spirv::Options worked;
  worked.loop_vectors_in_memory = true;
  CHECK(testing::emit_checked(m, worked).words == testing::emit_checked(m).words);
}

TEST_CASE("loop-vectors-in-memory keeps the vector of a loop without a break in memory too") {
  // fbm.frag's octave loop: `p` is carried, the loop has no break.
  const ir::Module m = testing::glsl_fragment_module(R"(#version 450
layout(location = 0) flat in vec2 a;
layout(location = 0) out vec4 o;
void main() {
  vec2 p = a;
  float v = 0.0;
  for (int i = 0; i < 8; ++i) { v += p.x; p = p * 2.0 + vec2(1.0, 0.5); }
  o = vec4(p, v, 1.0);
})");
  spirv::Options worked;
  worked.loop_vectors_in_memory = true;
  const testing::Emitted plain = testing::emit_checked(m);
  const testing::Emitted kept = testing::emit_checked(m, worked);
  CHECK(testing::count_of(plain.text, "OpPhi %v2float") == 1);
  CHECK(testing::count_of(kept.text, "OpPhi %v2float") == 0);
  CHECK(testing::count_of(kept.text, "%p = OpVariable %_ptr_Function_v2float") == 1);
  CHECK(testing::count_of(kept.text, "OpPhi %float") == 1);  // v
  // p = (1, 2) after 8 steps of p * 2 + (1, 0.5), v the sum of the p.x seen.
  float px = 1.0f, py = 2.0f, v = 0.0f;
  for (int i = 0; i < 8; ++i) {
    v += px;
    px = px * 2.0f + 1.0f;
    py = py * 2.0f + 0.5f;
  }
  for (const testing::Emitted* e : {&plain, &kept}) {
    const auto run = testing::run_spirv(e->words, {{"a", floats({1.0f, 2.0f})}});
    INFO(run.error);
    REQUIRE(run.ok);
    CHECK(run.outputs.at("o") == floats({px, py, v, 1.0f}));
  }
}
