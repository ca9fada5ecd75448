#version 450

layout(location = 0) out vec4 color;
layout(location = 0) in float x;
layout(location = 1) flat in int n;

void main() {
    float acc = 0.0;
    for (int i = 0; i < n;) {
        switch (i) {
            case 1:
                if (i > 5) {
                    acc *= 0.5;
                }
                ++i;
                continue;
            default:
                break;
        }
        acc += x;
        if (i > 5) {
            acc *= 0.5;
        }
        ++i;
    }
    color = vec4(acc);
}
