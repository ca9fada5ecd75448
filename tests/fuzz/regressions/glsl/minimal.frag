#version 450
layout(location = 0) out vec4 color;
float twice(float x) { return x + x; }
void main() { color = vec4(twice(gl_FragCoord.x), 0.0, 0.0, 1.0); }
