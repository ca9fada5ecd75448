#version 450
// Per-vertex block and matrix inputs and a patch matrix, fed through
// sluice xcheck's pass-through control shader.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) in Vertex {
  vec2 uv;
  mat2 frame;
} vertices[];
layout(location = 3) in mat4 transforms[];
layout(location = 7) patch in mat2x4 shared_frame;
layout(location = 0) out vec4 colour;
void main() {
  vec3 t = gl_TessCoord;
  gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;
  vec2 uv = t.x * vertices[0].uv + t.y * (vertices[1].frame * vertices[1].uv) + t.z * vertices[2].uv;
  vec4 w = transforms[0] * vec4(uv, t.z, 1.0) + shared_frame * uv;
  colour = vec4(fract(w.xyz), 1.0);
}
