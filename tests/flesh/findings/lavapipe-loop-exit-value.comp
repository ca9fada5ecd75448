// A loop-carried value read after a `break` comes out as its first
// iteration's value on lavapipe (Mesa 22.3.6, LLVM 15.0.6), found by
// `sluice flesh --mode data --run` (docs/flesh.md, "Findings").
// With dir = {0, 0, 1}: o = {126, 5, 2654435887, 2654435938}; lavapipe
// writes 51 (= 126 ^ 77) last.
#version 450
layout(local_size_x=1) in;
layout(set=0,binding=0) buffer D { uint dir[4]; };
layout(set=0,binding=1) buffer O { uint o[8]; };
void main() {
  uint acc = 5u; uint di = 0u; uint oi = 0u;
  while (true) {
    uint d = dir[di]; di++;
    acc = (acc ^ 123u) + d * 0x9e3779b1u;
    o[oi++] = acc;
    if (d == 1u) break;
  }
  o[oi++] = acc ^ 77u;
}
