// Whole-module dumps of two representative shaders, kept as goldens so
// that any change in what the front end emits shows up in review
// (SLUICE_UPDATE_GOLDEN=1 regenerates them; docs/testing.md).
#include "glsl_test_util.h"
#include "golden_file.h"

using namespace sluice;

TEST_CASE("golden: a fragment shader with every statement form") {
  const ir::Module m = testing::compile_valid(R"(#version 310 es
precision mediump float;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Params { int mode; float scale; } params;

void accumulate(inout vec4 sum, in float x, out bool saturated) {
  sum.rg += vec2(x, x * 0.5);
  saturated = sum.r >= 1.0 || sum.g >= 1.0;
}

void main() {
  vec4 sum = vec4(0.0);
  bool done = false;
  for (int i = 0; i < 8 && !done; ++i) {
    if (i == 3) continue;
    accumulate(sum, uv.x * float(i) * params.scale, done);
  }
  int k = 0;
  do { k++; } while (k < params.mode);
  switch (params.mode) {
    case 0: sum.b = 1.0;
    case 1: sum.b += 0.5; break;
    default: sum.b = uv.y > 0.5 ? 0.25 : 0.75; break;
  }
  if (sum.a < 0.0) discard;
  color = sum;
}
)",
                                              "statements.frag");
  testing::check_golden("glsl_statements.ir", ir::dump(m));
}

TEST_CASE("golden: a compute shader with buffers, shared memory, atomics and images") {
  const ir::Module m = testing::compile_valid(R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { uint total; float values[]; } data;
layout(set = 0, binding = 1, r32f) uniform readonly image2D src;
layout(push_constant) uniform Push { float gain; } push;
shared float partial[64];

void main() {
  uint i = gl_LocalInvocationID.x;
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  partial[i] = imageLoad(src, p).r * push.gain;
  barrier();
  for (uint s = 32u; s > 0u; s >>= 1u) {
    if (i < s) partial[i] += partial[i + s];
    barrier();
  }
  if (i == 0u) {
    data.values[gl_WorkGroupID.x] = partial[0];
    atomicAdd(data.total, 1u);
  }
}
)",
                                              "reduce.comp");
  testing::check_golden("glsl_compute.ir", ir::dump(m));
}
