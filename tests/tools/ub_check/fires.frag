#version 450
// Every check the fragment stage can fire, drawn at 16x4: gl_FragCoord is
// (x + 0.5, y + 0.5) for x in 0..15, y in 0..3. Each `expect` line is
// <check> <line> <distinct invocations>, worked out from the coordinates
// (tests/tools/ub_check_test.cpp).
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) readonly buffer Data { float data[]; };
void main() {
  float fx = gl_FragCoord.x, fy = gl_FragCoord.y;
  int x = int(fx), y = int(fy);
  float acc = 0.0;
  int d = x - 3;
  acc += float(100 / d);                                // expect div-by-zero 13 4
  int a = x == 5 ? -2147483647 - 1 : 7;
  acc += float(a / -1);                                 // expect div-overflow 15 4
  acc += float(1 << (x * 3));                           // expect shift-out-of-range 16 20
  float arr[8] = float[8](1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
  acc += arr[x];                                        // expect index-out-of-bounds 18 32
  vec4 v = vec4(fx, fy, 1.0, 2.0);
  acc += v[x];                                          // expect index-out-of-bounds 20 48
  mat2 m = mat2(fx, fy, 3.0, 4.0);
  acc += m[y].x;                                        // expect index-out-of-bounds 22 32
  acc += data[x + 8];                                   // expect index-out-of-bounds 23 32
  acc += float(int(fx * 1.0e9));                        // expect float-to-int-overflow 24 56
  acc += sqrt(fx - 10.0);                               // expect domain-sqrt 25 40
  acc += inversesqrt(fx - 2.0);                         // expect domain-inversesqrt 26 8
  acc += log(fx - 4.0);                                 // expect domain-log 27 16
  acc += log2(fx - 6.0);                                // expect domain-log2 28 24
  acc += pow(fx - 8.0, 2.0);                            // expect domain-pow 29 32
  acc += asin(fx / 4.0 - 1.0);                          // expect domain-asin 30 32
  acc += acos(fx / 4.0 - 1.0);                          // expect domain-acos 31 32
  acc += atan(fy - 1.5, fx - 3.5);                      // expect domain-atan2 32 1
  acc += acosh(fx - 3.0);                               // expect domain-acosh 33 16
  acc += atanh(fx / 4.0 - 1.0);                         // expect domain-atanh 34 32
  acc += clamp(fy, fx, 4.0);                            // expect domain-clamp 35 48
  acc += smoothstep(fx, 8.0, fy);                       // expect domain-smoothstep 36 32
  acc += normalize(vec2(fx - 3.5, fy - 1.5)).x;         // expect domain-normalize 37 1
  acc += mod(fy, fx - 3.5);                             // expect domain-mod 38 4
  acc += float(bitfieldExtract(y, x * 3, 8));           // expect domain-bitfield 39 28
  color = vec4(acc, 0.0, 0.0, 1.0);
}
