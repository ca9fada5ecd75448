// bench-run: dispatch 512 1 1 elements 64
// One n-body step: every body sums the softened gravity of all N = 64 * ITER bodies.
#version 450
#ifndef ITER
#define ITER 1024
#endif
#define N (64 * ITER)
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 acc_out[]; };
shared vec4 tile[64];
vec4 body(uint i) {
  float f = float(i);
  return vec4(sin(f * 0.37) * 10.0, cos(f * 0.11) * 10.0, sin(f * 0.73 + 1.0) * 10.0, 1.0 + float(i % 5u));
}
void main() {
  uint self = gl_GlobalInvocationID.x % N;
  vec4 me = body(self);
  vec3 acc = vec3(0.0);
  for (uint t = 0u; t < N / 64u; ++t) {
    tile[gl_LocalInvocationID.x] = body(t * 64u + gl_LocalInvocationID.x);
    barrier();
    for (uint j = 0u; j < 64u; ++j) {
      vec3 d = tile[j].xyz - me.xyz;
      float r2 = dot(d, d) + 0.01;
      float inv = inversesqrt(r2);
      acc += d * (tile[j].w * inv * inv * inv);
    }
    barrier();
  }
  acc_out[gl_GlobalInvocationID.x] = vec4(acc, 0.0);
}
