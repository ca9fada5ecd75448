#version 450
// sample-mask-index.frag with the index in range: compiles, nothing fires.
layout(location = 0) out vec4 color;
void main() {
  gl_SampleMask[0] = gl_SampleMaskIn[0];
  color = vec4(float(gl_SampleMaskIn[0] & 1), 0.0, 0.0, 1.0);
}
