#version 450
// Desktop GLSL keeps built-in functions apart from block names: this
// passes the front end (no false rejection from the block-name guard; the
// GLSL output then declines the name, which GLSL ES would not take).
layout(set = 0, binding = 0) uniform sin
{
    float one;
};
layout(location = 0) out vec4 color;
void main() { color = vec4(one); }
