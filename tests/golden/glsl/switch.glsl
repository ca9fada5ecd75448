#version 450

layout(location = 0) out vec4 color;
layout(location = 0) in float x;
layout(location = 1) flat in int n;

void main() {
    float acc = 0.0;
    switch (n) {
        case 0:
        default: {
            const float t2 = x * 2.0;
            acc = t2 + t2;
        }
        case -3:
            acc = -1.0;
            break;
        case 7:
            break;
    }
    color = vec4(acc);
}
