#version 450

layout(location = 0) out vec4 out0;

float ring(float d, float radius, float width);

void main() {
    out0 = vec4(gl_FragCoord.xy / vec2(256.0), ring(distance(gl_FragCoord.xy, vec2(128.0)), 96.0, 4.0), 1.0);
}

float ring(float d, float radius, float width) {
    return 1.0 - smoothstep(0.0, width, abs(d - radius));
}
