#version 450

layout(location = 0) out vec4 color;
layout(location = 0) in float x;
layout(location = 1) flat in int n;

void main() {
    float keep;
    float t8;
    if (x > 0.0 && n > 2 || n < 0) {
        keep = x;
        t8 = keep + 1.0;
    } else {
        t8 = 2.0;
    }
    color = vec4(t8);
}
