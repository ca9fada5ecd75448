#version 450
// Doubles run on lavapipe (shaderFloat64): Sluice -O1 folds the double
// arithmetic of the locals below at compile time (src/transform/
// fold_double.cpp, in binary64), which glslang leaves to the GPU; xcheck
// compares the buffers within 4 ULPs of binary64, so a fold through float
// would fail.
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Data {
  dvec2 folded;
  double values[];
} data;
void main() {
  double third = 1.0lf;
  third = third / 3.0lf;
  double tenth = 0.1lf;
  double sum = third + tenth * 7.0lf - 0.5lf;
  dvec2 pair = dvec2(sum, -third) * dvec2(3.0lf, 1e-3lf);
  uint i = gl_GlobalInvocationID.x;
  double x = double(i) * tenth + third;
  data.values[i] = x * x - sqrt(x) + fma(x, sum, -1.0lf) + abs(pair.y);
  if (i == 0u) data.folded = pair + dvec2(max(third, tenth), min(third, tenth));
}
