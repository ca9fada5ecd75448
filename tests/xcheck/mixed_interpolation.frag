#version 450
// A fragment input block whose members differ in interpolation: Sluice's
// SPIR-V front end splits it into one input per member (reader_interface.cpp),
// as the GLSL front end does; interpolating a member the wrong way (the
// whole block flat, say) changes the picture, since the runner's vertex
// shader feeds each member different values per vertex.
layout(location = 1) in Varyings {
  vec4 tint;
  flat ivec2 cell;
  noperspective float fade;
  centroid vec2 uv;
} v;
layout(location = 0) out vec4 colour;
void main() {
  colour = vec4(fract(v.tint.xy * 3.0 + v.uv), fract(float(v.cell.x + v.cell.y) * 0.37), fract(v.fade * 5.0));
}
