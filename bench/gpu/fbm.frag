// bench-run: draw 2048 2048
// Value-noise fractal Brownian motion: ITER + 1 fields of 8 octaves each.
#version 450
#ifndef ITER
#define ITER 32
#endif
layout(location = 0) out vec4 color;
// An integer hash of the lattice point (exact, so every variant agrees).
float hash(vec2 p) {
  uvec2 q = uvec2(ivec2(p) + 32768);
  uint h = q.x * 1597334677u ^ q.y * 3812015801u;
  h = (h ^ (h >> 15)) * 2246822519u;
  return float(h >> 8) * (1.0 / 16777216.0);
}
float noise(vec2 p) {
  vec2 i = floor(p), f = fract(p);
  vec2 u = f * f * (3.0 - 2.0 * f);
  return mix(mix(hash(i), hash(i + vec2(1.0, 0.0)), u.x), mix(hash(i + vec2(0.0, 1.0)), hash(i + vec2(1.0, 1.0)), u.x), u.y);
}
float fbm(vec2 p) {
  float v = 0.0, a = 0.5;
  mat2 rot = mat2(0.8, 0.6, -0.6, 0.8);
  for (int i = 0; i < 8; ++i) { v += a * noise(p); p = rot * p * 2.0 + vec2(1.7, 9.2); a *= 0.5; }
  return v;
}
void main() {
  vec2 p = gl_FragCoord.xy / 64.0;
  float f = 0.0;
  for (int k = 0; k < ITER; ++k) f += fbm(p + vec2(float(k) * 17.0, float(k) * 5.0));
  color = vec4(f / float(ITER), fbm(p.yx), 0.5, 1.0);
}
