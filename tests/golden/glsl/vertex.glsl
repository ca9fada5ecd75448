#version 450

layout(location = 0) in vec3 position;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
layout(location = 1) out int v_id;
layout(std140, set = 0, binding = 0) uniform Transforms {
    layout(row_major) mat4 mvp;
    layout(offset = 80) vec4 tint;
    float weights[4];
} transforms;
layout(push_constant) uniform Push {
    float scale;
} pc;
invariant gl_Position;

void main() {
    gl_Position = transforms.mvp * vec4(position, 1.0) * (pc.scale * transforms.weights[gl_VertexIndex]);
    v_uv = uv * transforms.tint.xy;
    v_id = gl_VertexIndex;
}
