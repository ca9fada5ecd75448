// bench-run: dispatch 2048 1 1 elements 1024
// Bitonic sort of 1024 generated keys per workgroup in shared memory,
// repeated ITER times on re-generated keys (the last sort is written out).
#version 450
#ifndef ITER
#define ITER 64
#endif
layout(local_size_x = 512) in;
layout(std430, set = 0, binding = 0) buffer Out { uint keys[]; };
shared uint s[1024];
uint key(uint i, uint round) { i = i * 747796405u + 2891336453u + round * 97u; i = ((i >> ((i >> 28u) + 4u)) ^ i) * 277803737u; return (i >> 22u) ^ i; }
void main() {
  uint lid = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 1024u;
  for (uint round = 0u; round < ITER; ++round) {
    s[lid] = key(base + lid, round);
    s[lid + 512u] = key(base + lid + 512u, round);
    barrier();
    for (uint size = 2u; size <= 1024u; size <<= 1) {
      for (uint stride = size >> 1; stride > 0u; stride >>= 1) {
        uint i = 2u * lid - (lid & (stride - 1u));
        uint j = i + stride;
        bool up = ((i & size) == 0u);
        uint a = s[i], b = s[j];
        if ((a > b) == up) { s[i] = b; s[j] = a; }
        barrier();
      }
    }
  }
  keys[base + lid] = s[lid];
  keys[base + lid + 512u] = s[lid + 512u];
}
