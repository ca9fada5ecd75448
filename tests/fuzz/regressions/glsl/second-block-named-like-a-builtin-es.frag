#version 310 es
// Two blocks: the guard probes both names in one glslang parse; glslang
// stops at the first redefinition, which must be the second block here.
precision highp float;
layout(binding = 0) uniform buf0 { float a; };
layout(binding = 1) uniform ceil { float b; };
layout(location = 0) out vec4 color;
void main() { color = vec4(a, b, 0.0, 1.0); }
