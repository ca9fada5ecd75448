#version 450

layout(location = 0) out vec4 out0;

void main() {
    float n = 4.0;
    float accum = 0.0;
    float t5;
    for (;;) {
        const float t0 = n;
        const float t1 = accum;
        if (t0 == 0.0) {
            t5 = t1;
            break;
        } else {
            n = t0 - 1.0;
            accum = t1 + t0;
            continue;
        }
    }
    float n_1 = 3.0;
    float accum_1 = 1.0;
    float t11;
    for (;;) {
        const float t6 = n_1;
        const float t7 = accum_1;
        if (t6 == 0.0) {
            t11 = t7;
            break;
        } else {
            n_1 = t6 - 1.0;
            accum_1 = t7 * t6;
            continue;
        }
    }
    out0 = vec4(t5 / 16.0, t11 / 8.0, 0.0, 1.0);
}
