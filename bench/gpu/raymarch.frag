// bench-run: draw 2048 2048
// Sphere-traced SDF scene (spheres, a box, a torus, smooth union), soft shadows, ITER * 8 steps.
#version 450
#ifndef ITER
#define ITER 16
#endif
layout(location = 0) out vec4 color;
float smin(float a, float b, float k) { float h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0); return mix(b, a, h) - k * h * (1.0 - h); }
float box(vec3 p, vec3 b) { vec3 q = abs(p) - b; return length(max(q, 0.0)) + min(max(q.x, max(q.y, q.z)), 0.0); }
float torus(vec3 p, vec2 t) { vec2 q = vec2(length(p.xz) - t.x, p.y); return length(q) - t.y; }
float scene(vec3 p) {
  float d = p.y + 1.0;
  for (int i = 0; i < 4; ++i) {
    vec3 c = vec3(float(i) - 1.5, 0.0, 3.0 + float(i & 1));
    d = smin(d, length(p - c) - 0.5, 0.3);
  }
  d = min(d, box(p - vec3(0.0, -0.5, 5.0), vec3(2.0, 0.3, 0.3)));
  return min(d, torus(p - vec3(0.0, 0.8, 4.0), vec2(0.8, 0.15)));
}
vec3 normal(vec3 p) {
  vec2 e = vec2(0.001, 0.0);
  return normalize(vec3(scene(p + e.xyy) - scene(p - e.xyy), scene(p + e.yxy) - scene(p - e.yxy), scene(p + e.yyx) - scene(p - e.yyx)));
}
float shadow(vec3 ro, vec3 rd) {
  float res = 1.0, t = 0.02;
  for (int i = 0; i < 4 * ITER; ++i) {
    float h = scene(ro + rd * t);
    res = min(res, 8.0 * h / t);
    t += clamp(h, 0.02, 0.5);
    if (h < 0.0005 || t > 10.0) break;
  }
  return clamp(res, 0.0, 1.0);
}
void main() {
  vec2 size = vec2(SIZE);
  vec2 uv = (gl_FragCoord.xy - 0.5 * size) / (0.5 * size);
  vec3 ro = vec3(0.0, 0.5, -1.0), rd = normalize(vec3(uv.x, -uv.y, 1.5));
  float t = 0.0;
  vec3 col = vec3(0.1, 0.2, 0.3);
  for (int i = 0; i < 8 * ITER; ++i) {
    vec3 p = ro + rd * t;
    float d = scene(p);
    if (d < 0.001) {
      vec3 n = normal(p);
      vec3 l = normalize(vec3(0.6, 0.8, -0.4));
      col = vec3(0.8, 0.7, 0.6) * max(dot(n, l), 0.0) * shadow(p + n * 0.01, l) + 0.05;
      break;
    }
    t += d;
    if (t > 20.0) break;
  }
  color = vec4(col, 1.0);
}
