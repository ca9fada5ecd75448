#version 450
layout(location = 0) out float o;
#define D(x) x x
void main() { float x = 1.0; o = 0.0 D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(+x))))))))))))))))))))))))); }
