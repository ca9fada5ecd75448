#version 450
// Double arithmetic in a fragment shader, through both outputs; the
// colour keeps differences a float computation would lose (1e-9 steps
// scaled up by 1e7 before the fract).
layout(location = 0) out vec4 colour;
void main() {
  dvec2 p = dvec2(gl_FragCoord.xy) / 7.0lf;
  double tiny = 1e-9lf;
  double a = fract((p.x + tiny * p.y) * 1e7lf);
  dmat2 m = dmat2(1.5lf, 0.25lf, -0.5lf, 2.0lf);
  dvec2 q = m * p + dvec2(a);
  double s = sqrt(abs(q.x)) + floor(q.y) * 0.125lf;
  colour = vec4(float(fract(s)), float(a), float(fract(q.y)), 1.0);
}
