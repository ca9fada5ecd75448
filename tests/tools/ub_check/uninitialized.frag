#version 450
// uninitialized-read at 16x4: `a` is written only where x >= 8, `never`
// (a private global) nowhere; each `expect` line is <check> <line>
// <distinct invocations>.
layout(location = 0) out vec4 color;
float never;
void main() {
  float fx = gl_FragCoord.x;
  float a;
  if (fx > 8.0) a = 1.0;
  color = vec4(a, 0.0, 0.0, 1.0);  // expect uninitialized-read 11 32
  color.y = never;                  // expect uninitialized-read 12 64
}
