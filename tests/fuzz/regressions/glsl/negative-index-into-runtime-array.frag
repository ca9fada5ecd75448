#version 450
// Fuzz finding (fifth campaign, glsl): `(i, -1)` is no constant expression
// (GLSL 4.60 §4.3.3: the sequence operator makes none), so glslang accepts
// it as an index of a runtime-sized array; Sluice folded it to -1 and wrote
// `v[-1]`, which glslang refuses ("index out of range '-1'") for every
// array. A uint of 2^31 or more reads as negative too; a spec-sized array's
// length is unknown, but -1 is out of its range as well.
layout(constant_id = 0) const int N = 4;
layout(std430, binding = 0) buffer Buf { vec4 v[]; };
layout(location = 0) flat in int i;
layout(location = 0) out vec4 color;
void main() {
    float a[N];
    for (int k = 0; k < N; ++k) a[k] = float(k);
    color = vec4(a[i & 3]);
    if (i > 0) color = v[(i, -1)] + v[(i, 2147483648u)] + a[(i, -1)];
}
