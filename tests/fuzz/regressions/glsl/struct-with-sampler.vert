#version 450
uniform struct S { sampler2D s; } si;
vec4 sample_it(S p) { return texture(p.s, vec2(0.5)); }
void main() { gl_Position = sample_it(si); }
