#version 450

struct Light {
    vec4 color;
    vec3 dir;
};

struct Scene {
    Light lights[2];
    float exposure;
};

layout(location = 0) out vec4 color;

void main() {
    Scene s = Scene(Light[2](Light(vec4(1.0), vec3(0.0, 1.0, 0.0)), Light(vec4(1.0), vec3(0.0, 1.0, 0.0))), 0.5);
    float g[2][3] = float[2][3](float[3]((1.0 / 0.0), (-1.0 / 0.0), -0.0), float[3](uintBitsToFloat(0x7fc00001u), 1.0, 1e+20));
    const float t13 = g[1][2] + float((-2147483647 - 1) + -7) + float(4000000000u);
    color = vec4(mat2(3.0) * s.lights[1].color.xy, t13, t13);
}
