#version 450

layout(location = 0) out vec4 color;
layout(location = 0) in float x;
layout(location = 1) flat in int n;

void main() {
    float acc = 0.0;
    int i = 0;
    while (i < n) {
        acc += x;
        i++;
    }
    color = vec4(acc);
}
