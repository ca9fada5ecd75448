#version 320 es
precision highp float;
layout(location = 0) out vec4 c;
#define F(A, B) (A + B)
#define CALL_F F(1.0,
#define ONE ONE
void main() { float ONE = 1.0; c = vec4(CALL_F ONE)); }
