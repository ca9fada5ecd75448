#version 450
// Cascades (16x4 pixels): a guard's substitute (0 for the unwritten d, index
// 0 for a[fx] past the end) feeds a later checked operation, which must not
// report what only the substitute causes. The division's divisor is d's
// undefined value, not a 0 of the program; a[fx] - a[0] is zero only
// through the substitute for fx >= 4, but zero of the program's own at fx 0.
layout(location = 0) out vec4 color;
void main() {
  int fx = int(gl_FragCoord.x);
  int d;
  int q = 100 / d;  // expect uninitialized-read 11 64 (and no div-by-zero)
  float a[4] = float[4](1.0, 2.0, 3.0, 4.0);
  float e = a[fx] - a[0];  // expect index-out-of-bounds 13 48 (fx = 4 ... 15)
  vec2 n = normalize(vec2(e));  // expect domain-normalize 14 4 (fx = 0 only)
  color = vec4(float(q), n, 1.0);
}
