#version 450
// A block and a matrix among the control shader's inputs, block outputs
// whose members the forwarding evaluation shader captures, and a double
// input sharing a location with a float (as location_aliasing.tesc).
layout(vertices = 3) out;
layout(location = 0) in Vertex {
  vec4 tint;
  mat3 frame;
} vertices[];
layout(location = 4, component = 0) in double weight[];
layout(location = 4, component = 2) in float bias[];
layout(location = 0) out Result {
  vec4 shaded;
  ivec2 index;
} results[];
void main() {
  vec3 f = vertices[gl_InvocationID].frame * vec3(0.5, 0.25, -1.0);
  double w = weight[gl_InvocationID] * 3.0lf + 0.125lf;
  results[gl_InvocationID].shaded = vertices[gl_InvocationID].tint * vec4(fract(f), float(w)) + bias[gl_InvocationID];
  results[gl_InvocationID].index = ivec2(gl_InvocationID, int(w * 8.0lf));
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = 3.0;
  gl_TessLevelInner[0] = 3.0;
}
