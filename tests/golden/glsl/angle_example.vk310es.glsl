#version 310 es
precision mediump float;
precision mediump int;

layout(early_fragment_tests) in;

layout(location = 0) out vec4 color;

void main() {
    vec2 result = vec2(0.0);
    for (int i = 0; i < 10; ++i) {
        result.yx += vec2(float(i), exp(float(i)));
    }
    color = result.x > result.y ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}
