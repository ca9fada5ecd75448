// bench-run: dispatch 192 192 1 elements 256
// C = A * B for N x N matrices (N = 16 * ITER), 16 x 16 tiles in shared memory.
#version 450
#ifndef ITER
#define ITER 160
#endif
#define TILE 16
#define N (TILE * ITER)
layout(local_size_x = TILE, local_size_y = TILE) in;
layout(std430, set = 0, binding = 0) buffer Out { float c[]; };
shared float ta[TILE][TILE];
shared float tb[TILE][TILE];
float a_at(uint r, uint k) { return float((r * 7u + k * 3u) % 17u) * 0.125 - 1.0; }
float b_at(uint k, uint col) { return float((k * 5u + col * 11u) % 13u) * 0.25 - 1.5; }
void main() {
  uint row = gl_WorkGroupID.y * TILE + gl_LocalInvocationID.y;
  uint col = gl_WorkGroupID.x * TILE + gl_LocalInvocationID.x;
  float acc = 0.0;
  for (uint t = 0u; t < N / TILE; ++t) {
    ta[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = a_at(row % N, t * TILE + gl_LocalInvocationID.x);
    tb[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = b_at(t * TILE + gl_LocalInvocationID.y, col % N);
    barrier();
    for (uint k = 0u; k < TILE; ++k) acc += ta[gl_LocalInvocationID.y][k] * tb[k][gl_LocalInvocationID.x];
    barrier();
  }
  c[(gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * TILE * TILE + gl_LocalInvocationIndex] = acc;
}
