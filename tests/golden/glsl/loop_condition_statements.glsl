#version 450

layout(location = 0) out vec4 color;
layout(location = 0) in float x;
layout(location = 1) flat in int n;

void main() {
    int i = 0;
    float acc = 0.0;
    for (;; acc *= 0.75) {
        i += 1;
        if (!(i < n)) break;
        if (x > 2.0) {
            continue;
        }
        acc += 1.0;
    }
    color = vec4(acc);
}
