#version 450
// uninitialized.frag with every read variable written first: nothing fires.
layout(location = 0) out vec4 color;
float never;
void main() {
  float fx = gl_FragCoord.x;
  float a;
  never = 0.5;
  if (fx > 8.0) a = 1.0; else a = 0.0;
  color = vec4(a, 0.0, 0.0, 1.0);
  color.y = never;
}
