#version 450
// gl_SampleMaskIn has ceil(gl_MaxSamples / 32) = 1 element (glslang's
// default gl_MaxSamples is 4): a constant index 1 is a compile-time error
// at line 8, column 37 (GLSL 4.60 §7.1.5, §4.1.9), not an array glslang
// sizes to 2.
layout(location = 0) out vec4 color;
void main() {
  color = vec4(float(gl_SampleMaskIn[1]), 0.0, 0.0, 1.0);
}
