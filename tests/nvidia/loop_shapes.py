#!/usr/bin/env python3
"""Writes the GLSL loop-nest shapes used to characterise NVIDIA's loop hang
(docs/testing.md, "Loop shapes on NVIDIA"): an outer loop counting a float or
int down to 0, and inside it one of five inner-loop shapes counting a float or
int down from the outer counter or from a constant.

  header   while (j != 0) { acc += j; j -= 1; }
  first    for (;;) { if (j == 0) { break; } acc += j; j -= 1; }   (the trigger)
  middle   for (;;) { acc += j; if (j == 0) { break; } j -= 1; }
  dowhile  do { acc += j; j -= 1; } while (j != 0);
  for      for (T j = start; j != 0; j -= 1) { acc += j; }

Every shader computes the same kind of value and runs a few dozen steps, so a
run that does not finish within the runner's 10 s is a driver hang.
Usage: loop_shapes.py OUTDIR   (writes OUTDIR/<name>.frag)
"""
import os
import sys

INNER = {
    "header": "while (j != {z}) {{ acc += float(j); j = j - {one}; }}",
    "first": "for (;;) {{ if (j == {z}) {{ break; }} acc += float(j); j = j - {one}; }}",
    "middle": "for (;;) {{ acc += float(j); if (j == {z}) {{ break; }} j = j - {one}; }}",
    "dowhile": "do {{ acc += float(j); j = j - {one}; }} while (j != {z});",
    "for": "for ({t} k = {start}; k != {z}; k = k - {one}) {{ acc += float(k); }}",
}


def shader(outer_t, inner_t, shape, from_outer):
    def lit(t, v):
        return f"{v}.0" if t == "float" else f"{v}"
    start = ("i" if outer_t == inner_t else f"{inner_t}(i)") if from_outer else lit(inner_t, 3)
    inner = INNER[shape].format(z=lit(inner_t, 0), one=lit(inner_t, 1), t=inner_t, start=start)
    decl = "" if shape == "for" else f"        {inner_t} j = {start};\n"
    return f"""#version 450
// outer {outer_t} counter, inner loop '{shape}' with a {inner_t} counter from {'the outer counter' if from_outer else 'a constant'}
layout(location = 0) out vec4 o;
void main() {{
    {outer_t} i = {lit(outer_t, 5)};
    float acc = 0.0;
    while (i != {lit(outer_t, 0)}) {{
{decl}        {inner}
        i = i - {lit(outer_t, 1)};
    }}
    o = vec4(acc / 100.0, 0.0, 1.0, 1.0);
}}
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for outer_t in ("float", "int"):
        for inner_t in ("float", "int"):
            for shape in INNER:
                for from_outer in (True, False):
                    name = f"{shape}-{inner_t}-in-{outer_t}-{'from-outer' if from_outer else 'from-constant'}"
                    with open(os.path.join(out, name + ".frag"), "w") as f:
                        f.write(shader(outer_t, inner_t, shape, from_outer))


if __name__ == "__main__":
    main()
