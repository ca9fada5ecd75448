// Loads of Uniform and PushConstant memory reused across the dominator tree
// (src/output/spirv/readonly_loads.cpp): a load after a loop takes the value
// the loop's header loaded; a load inside a loop is replaced by one from
// before the loop, except with Options::uniform_loads_in_loops (NVIDIA's
// workaround reload-uniforms-in-loops, docs/workarounds.md); loads
// in two branches of an If stay two; storage buffer loads are never reused.
// Access chains are reused wherever an equal one dominates.
// The shaders come through the GLSL front end without passes, so every
// `u.x` in the source is an access and a load in the IR. Every module is
// validated on every target.
#include <string>

#include <catch2/catch.hpp>

#include "glsl_fragment.h"

using namespace sluice;

namespace {

// Emitted on every target, with promotion to SSA (the default) and without.
std::vector<testing::Emitted> emit_glsl(const std::string& source) {
  const ir::Module m = testing::glsl_fragment_module(source);
  std::vector<testing::Emitted> out = testing::emit_everywhere(m);
  spirv::Options memory;
  memory.promote_to_ssa = false;
  out.push_back(testing::emit_checked(m, memory));
  return out;
}

const char* kHeader = R"(#version 450
layout(set = 0, binding = 0) uniform U { int n; int m; } u;
layout(std430, set = 0, binding = 1) buffer B { int k; } b;
layout(location = 0) flat in int x;
layout(location = 0) out vec4 o;
)";

}  // namespace

TEST_CASE("readonly loads: a load after a loop takes the value its header loaded") {
  const std::string source = std::string(kHeader) + R"(
void main() {
  int i = 0;
  while (i < u.n) { i = i + 1; }
  o = vec4(float(u.n));
})";
  for (const auto& e : emit_glsl(source)) {
    CHECK(testing::count_of(e.text, "OpLoad %int %") == 1 + testing::count_of(e.text, "OpLoad %int %i"));
    CHECK(testing::count_of(e.text, "OpAccessChain %_ptr_Uniform_int") == 1);
  }
}

TEST_CASE("readonly loads: a load inside a loop is replaced by one from before the loop, unless the workaround says") {
  const std::string source = std::string(kHeader) + R"(
void main() {
  int i = u.n - 5;
  while (i < u.n) { i = i + 1; }
  o = vec4(float(u.n));
})";
  for (const auto& e : emit_glsl(source)) {
    // Loaded once, before the loop; the address itself is made once.
    const std::size_t of_locals = testing::count_of(e.text, "OpLoad %int %i");
    CHECK(testing::count_of(e.text, "OpLoad %int %") - of_locals == 1);
    CHECK(testing::count_of(e.text, "OpAccessChain %_ptr_Uniform_int") == 1);
  }
  const ir::Module m = testing::glsl_fragment_module(source);
  for (const bool ssa : {true, false}) {
    spirv::Options nvidia;
    nvidia.uniform_loads_in_loops = true;
    nvidia.promote_to_ssa = ssa;
    const testing::Emitted e = testing::emit_checked(m, nvidia);
    // Loaded before the loop and again in its condition (after the loop
    // either serves); the address itself is made once.
    const std::size_t of_locals = testing::count_of(e.text, "OpLoad %int %i");
    CHECK(testing::count_of(e.text, "OpLoad %int %") - of_locals == 2);
    CHECK(testing::count_of(e.text, "OpAccessChain %_ptr_Uniform_int") == 1);
  }
}

TEST_CASE("readonly loads: loads in both branches of an If stay two, and one before the If serves its merge") {
  const std::string source = std::string(kHeader) + R"(
void main() {
  int a = u.m;
  if (x > 0) { o = vec4(float(u.n)); } else { o = vec4(float(u.n) + 1.0); }
  o = o + vec4(float(u.m + a));
})";
  for (const auto& e : emit_glsl(source)) {
    CHECK(testing::count_of(e.text, "OpAccessChain %_ptr_Uniform_int %u %int_0") == 2);  // u.n, once a branch
    CHECK(testing::count_of(e.text, "OpAccessChain %_ptr_Uniform_int %u %int_1") == 1);  // u.m, before the If
  }
}

TEST_CASE("readonly loads: storage buffer loads are not reused") {
  const std::string source = std::string(kHeader) + R"(
void main() {
  int a = b.k;
  b.k = a + 1;
  o = vec4(float(a + b.k));
})";
  for (const auto& e : emit_glsl(source)) {
    const std::size_t loads = testing::count_of(e.text, "OpLoad %int %");
    const std::size_t of_locals = testing::count_of(e.text, "OpLoad %int %a");
    CHECK(loads - of_locals == 2);
  }
}

TEST_CASE("readonly loads: an input loaded in a loop's condition serves after the loop, but gl_HelperInvocation never") {
  const std::string source = std::string(kHeader) + R"(
void main() {
  int i = 0;
  float f = 0.0;
  while (i < x) { i = i + 1; f += gl_FragCoord.x; }
  if (gl_HelperInvocation) f = 1.0;
  o = vec4(float(x) + f, gl_FragCoord.x, float(gl_HelperInvocation), 0.0);
})";
  for (const auto& e : emit_glsl(source)) {
    INFO(e.text);
    // x: loaded in the loop's condition, reused after it.
    CHECK(testing::count_of(e.text, "OpLoad %int %x") == 1);
    // gl_FragCoord.x: once in the body (which does not dominate the use
    // after the loop) and once after it.
    CHECK(testing::count_of(e.text, "OpLoad %float %") - testing::count_of(e.text, "OpLoad %float %f") == 2);
    // gl_HelperInvocation: loaded at each of its two uses.
    CHECK(testing::count_of(e.text, "OpLoad %bool %gl_HelperInvocation") == 2);
  }
}
