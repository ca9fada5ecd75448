#version 450

layout(location = 0) out vec4 out0;

void main() {
    out0 = vec4(1.0, 1.0, 0.0, 1.0);
}
