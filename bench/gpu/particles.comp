// bench-run: dispatch 2048 1 1 elements 64
// Particles integrated ITER * 16 steps in registers: struct state, a small
// local array of forces, swizzled updates (what scalar replacement and
// vector forwarding act on).
#version 450
#ifndef ITER
#define ITER 512
#endif
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { vec4 state[]; };
struct Particle { vec3 pos; vec3 vel; float mass; };
void main() {
  float f = float(gl_GlobalInvocationID.x);
  Particle p;
  p.pos = vec3(sin(f), cos(f), 0.5 * sin(2.0 * f));
  p.vel = vec3(0.0);
  p.mass = 1.0 + fract(f * 0.618);
  vec3 wells[3];
  wells[0] = vec3(1.0, 0.0, 0.0); wells[1] = vec3(-0.5, 0.8, 0.0); wells[2] = vec3(-0.5, -0.8, 0.3);
  for (int step = 0; step < 16 * ITER; ++step) {
    vec3 force = vec3(0.0);
    for (int w = 0; w < 3; ++w) {
      vec3 d = wells[w] - p.pos;
      force += d / (dot(d, d) + 0.05);
    }
    p.vel.xy += force.xy * (0.001 / p.mass);
    p.vel.z += force.z * (0.001 / p.mass);
    p.vel *= 0.999;
    p.pos += p.vel * 0.01;
  }
  state[gl_GlobalInvocationID.x] = vec4(p.pos, p.mass);
}
