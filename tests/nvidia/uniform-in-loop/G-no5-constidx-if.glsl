#version 450
layout(set = 0, binding = 0) uniform buf0 { int _GLF_uniform_int_values[4]; } buf0_1;
layout(location = 0) out vec4 _GLF_color;
int func() {
    const int t2 = buf0_1._GLF_uniform_int_values[1];
    int a = t2;
    int b = t2;
    int arr[6] = int[6](t2, t2, t2, t2, t2, t2);
    while (b >= t2) {
        const int t30 = b;
        b = t30 + 1;
        a = t30;
        for (int i = 0; i < 3; i += 1) {
            const int t34 = a;
            if (t34 == 2) { arr[t34] += 1; } else if (t34 == 3) { return arr[2]; }
        }
    }
    return buf0_1._GLF_uniform_int_values[0];
}
void main() {
    if (func() == buf0_1._GLF_uniform_int_values[2]) {
        _GLF_color = vec4(1.0, 0.0, 0.0, 1.0);
    } else {
        _GLF_color = vec4(0.0);
    }
}
