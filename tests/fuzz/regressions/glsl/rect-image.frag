#version 450
layout(binding = 0) uniform sampler2DRect tex;
layout(location = 0) out vec4 color;
void main() { color = texture(tex, vec2(1.0)); }
