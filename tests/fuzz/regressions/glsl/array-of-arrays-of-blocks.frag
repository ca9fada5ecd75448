#version 450
layout(binding = 0) uniform Block { vec4 v; } blocks[2][3];
layout(location = 0) out vec4 color;
void main() { color = blocks[1][2].v; }
