#version 310 es
// glslang crashes (TParseContext::declareBlock) on an ES block named like a
// built-in function; Sluice reports the error glslang meant to give.
precision highp float;
#define NAME dFdx
layout(set = 0, binding = 0) uniform NAME
{
    int one;
};
layout(location = 0) out vec4 color;
void main() { color = vec4(one); }
