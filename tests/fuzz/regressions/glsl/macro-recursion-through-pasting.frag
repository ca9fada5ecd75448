#version 320 es
#define F(A, B) A
#define CAT(a, b) a##b
#define ONE F(clamp(CAT(O,NE), max(CAT(O,NE), CAT(O,NE)), CAT(O,NE));
int a = clamp(ONE, max(ONE, ONE), ONE);
