#version 450

layout(location = 0) out vec4 color;
layout(location = 0) in float x;
layout(location = 1) flat in int n;

void main() {
    int i = 0;
    float t0;
    for (;;) {
        const float t4 = x * float(i);
        if (t4 > 10.0) {
            t0 = t4;
            break;
        }
        ++i;
    }
    color = vec4(t0);
}
