#version 450
// A block named like a function declared before it: glslang crashes the
// same way as for ES built-ins.
float f(float x) { return x; }
layout(set = 0, binding = 0) uniform f
{
    float one;
};
layout(location = 0) out vec4 color;
void main() { color = vec4(one); }
