#version 450

layout(location = 0) out vec4 color;
layout(location = 0) in float x;
layout(location = 1) flat in int n;

void main() {
    int i = 0;
    float acc = 0.0;
    bool loop_again = false;
    do {
        if (i % 2 == 1) {
            ++i;
            acc *= 0.5;
            loop_again = i < n;
            continue;
        }
        acc += x;
        ++i;
        acc *= 0.5;
        loop_again = i < n;
    } while (loop_again);
    color = vec4(acc);
}
