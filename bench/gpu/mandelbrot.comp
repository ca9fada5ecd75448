// bench-run: dispatch 256 256 1 elements 64
// Mandelbrot escape counts with a high iteration limit (64 * ITER).
#version 450
#ifndef ITER
#define ITER 64
#endif
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint count[]; };
void main() {
  uvec2 size = gl_NumWorkGroups.xy * gl_WorkGroupSize.xy;
  vec2 c = vec2(-0.7453, 0.1127) + (vec2(gl_GlobalInvocationID.xy) / vec2(size) - 0.5) * 0.01;
  vec2 z = vec2(0.0);
  uint n = 0u;
  for (; n < 64u * ITER; ++n) {
    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    if (dot(z, z) > 4.0) break;
  }
  count[gl_GlobalInvocationID.y * size.x + gl_GlobalInvocationID.x] = n;
}
