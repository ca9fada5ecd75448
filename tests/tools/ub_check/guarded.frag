#version 450
// fires.frag's operations, each guarded so that no invocation reaches an
// undefined case: --ub-check must report nothing.
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) readonly buffer Data { float data[]; };
void main() {
  float fx = gl_FragCoord.x, fy = gl_FragCoord.y;
  int x = int(fx), y = int(fy);
  float acc = 0.0;
  int d = x - 3;
  if (d != 0) acc += float(100 / d);
  int a = x == 5 ? -2147483647 - 1 : 7;
  if (a != -2147483647 - 1) acc += float(a / -1);
  acc += float(1 << min(x * 3, 31));
  float arr[8] = float[8](1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
  acc += arr[x & 7];
  vec4 v = vec4(fx, fy, 1.0, 2.0);
  acc += v[x & 3];
  mat2 m = mat2(fx, fy, 3.0, 4.0);
  acc += m[y & 1].x;
  acc += data[(x + 8) & 15];
  acc += float(int(min(fx * 1.0e9, 2.0e9)));
  acc += sqrt(max(fx - 10.0, 0.0));
  acc += inversesqrt(max(fx - 2.0, 0.25));
  acc += log(max(fx - 4.0, 0.5));
  acc += log2(max(fx - 6.0, 0.5));
  acc += pow(max(fx - 8.0, 0.5), 2.0);
  acc += asin(clamp(fx / 4.0 - 1.0, -1.0, 1.0));
  acc += acos(clamp(fx / 4.0 - 1.0, -1.0, 1.0));
  if (fx != 3.5 || fy != 1.5) acc += atan(fy - 1.5, fx - 3.5);
  acc += acosh(max(fx - 3.0, 1.0));
  acc += atanh(clamp(fx / 4.0 - 1.0, -0.5, 0.5));
  acc += clamp(fy, min(fx, 4.0), 4.0);
  acc += smoothstep(min(fx, 7.0), 8.0, fy);
  vec2 n = vec2(fx - 3.5, fy - 1.5);
  if (dot(n, n) > 0.0) acc += normalize(n).x;
  if (fx != 3.5) acc += mod(fy, fx - 3.5);
  acc += float(bitfieldExtract(y, min(x * 3, 24), 8));
  color = vec4(acc, 0.0, 0.0, 1.0);
}
