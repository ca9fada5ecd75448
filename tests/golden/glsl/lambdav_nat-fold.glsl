#version 450

layout(location = 0) out vec4 out0;

void main() {
    float n = 4.0;
    float accum = 0.0;
    while (n != 0.0) {
        const float t2 = n;
        n = t2 - 1.0;
        accum = accum + t2;
    }
    float n_1 = 3.0;
    float accum_1 = 1.0;
    const float t6 = accum;
    while (n_1 != 0.0) {
        const float t9 = n_1;
        n_1 = t9 - 1.0;
        accum_1 = accum_1 * t9;
    }
    out0 = vec4(t6 / 16.0, accum_1 / 8.0, 0.0, 1.0);
}
