#version 320 es
#define F(A, B) A
#define ONE F(clamp(ONE, max(ONE, ONE), ONE);
int a = clamp(ONE, max(ONE, ONE), ONE);
