#version 450
// Fed by sluice xcheck's partner vertex shader: a matrix input and a block
// whose members are a vector, a matrix and an integer vector, each value
// different per vertex and location (src/exec/partner_values.h).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in mat3 basis[];
layout(location = 3) in Attributes {
  vec4 tint;
  mat2x3 shear;
  ivec2 steps;
} attributes[];
layout(location = 0) out vec4 colour;
layout(location = 1) flat out ivec2 count;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    vec3 v = basis[i] * vec3(1.0, -2.0, 0.5) + attributes[i].shear * vec2(0.75, 1.25);
    colour = vec4(fract(v), 1.0) * attributes[i].tint;
    count = attributes[i].steps * 3 + ivec2(i);
    EmitVertex();
  }
  EndPrimitive();
}
