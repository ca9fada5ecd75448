#version 450
#extension GL_EXT_scalar_block_layout : require
layout(std430, set=0, binding=0) uniform U { float a[4]; } u;
layout(location=0) out vec4 o;
void main(){ o = vec4(u.a[1]); }
