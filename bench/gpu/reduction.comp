// bench-run: dispatch 4096 1 1 elements 1
// Parallel sum: each 256-invocation group sums 256 * ITER generated values
// (a strided loop, then a shared-memory tree).
#version 450
#ifndef ITER
#define ITER 1024
#endif
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Out { uint sums[]; };
shared uint partial[256];
uint value(uint i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; return (i ^ (i >> 16)) & 0xffu; }
void main() {
  uint base = gl_WorkGroupID.x * 256u * ITER;
  uint s = 0u;
  for (uint k = 0u; k < ITER; ++k) s += value(base + k * 256u + gl_LocalInvocationID.x);
  partial[gl_LocalInvocationID.x] = s;
  barrier();
  for (uint stride = 128u; stride > 0u; stride >>= 1) {
    if (gl_LocalInvocationID.x < stride) partial[gl_LocalInvocationID.x] += partial[gl_LocalInvocationID.x + stride];
    barrier();
  }
  if (gl_LocalInvocationID.x == 0u) sums[gl_WorkGroupID.x] = partial[0];
}
