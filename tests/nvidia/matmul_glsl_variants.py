#!/usr/bin/env python3
"""Writes variants of bench/gpu/matmul.comp for `sluice bench-run` to find
why Sluice's GLSL of it runs 3.9x slower on NVIDIA than glslang's SPIR-V of
the original (docs/performance.md, "GPU run time"). Each variant changes one
thing between the two; in each bench-run row the "glslang" column (glslang
-V of that file) is the figure to compare.

  original.comp      bench/gpu/matmul.comp as it is (a_at/b_at are calls)
  inlined.comp       the original with a_at/b_at written out in main
  sluice.comp        `sluice compile matmul.comp -O1 --emit glsl`
  sluice-nocopy.comp Sluice's GLSL with its `const T tN = X;` copies
                     replaced by X (no extra Function variables)

Statically the two SPIR-V modules (glslang -V of original.comp and of
sluice.comp) differ only in those copies — each a Function variable stored
once and loaded after — and in a_at/b_at being inlined; headers,
decorations and barriers are the same (checked with spirv-dis).
Result (2026-11-27, H200, 580.159.04, bench-run warming up by GPU time): all
four variants read 4.962-4.963 ms in every column; the 3.9x was the GPU's
warm-up after 3 runs, not the code (docs/performance.md, "Session 14").
Usage: matmul_glsl_variants.py SLUICE OUTDIR
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MATMUL = os.path.join(HERE, "..", "..", "bench", "gpu", "matmul.comp")


def main():
    sluice, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    original = open(MATMUL).read()
    header = original.splitlines()[0] + "\n"  # the `// bench-run:` line
    inlined = original.replace(
        "a_at(row % N, t * TILE + gl_LocalInvocationID.x)",
        "(float(((row % N) * 7u + (t * TILE + gl_LocalInvocationID.x) * 3u) % 17u) * 0.125 - 1.0)").replace(
        "b_at(t * TILE + gl_LocalInvocationID.y, col % N)",
        "(float(((t * TILE + gl_LocalInvocationID.y) * 5u + (col % N) * 11u) % 13u) * 0.25 - 1.5)")
    assert inlined != original
    glsl = subprocess.run([sluice, "compile", MATMUL, "-O1", "--emit", "glsl"], check=True,
                          capture_output=True, text=True).stdout
    # `const uint t34 = gl_LocalInvocationID.y;` -> uses of t34 become the expression.
    copies = dict(re.findall(r"^\s*const \w+ (t\d+) = ([^;]+);\n", glsl, flags=re.M))
    nocopy = re.sub(r"^\s*const \w+ t\d+ = [^;]+;\n", "", glsl, flags=re.M)
    for name, expr in copies.items():
        nocopy = re.sub(rf"\b{name}\b", f"({expr})", nocopy)
    variants = {"original": original, "inlined": inlined, "sluice": header + glsl, "sluice-nocopy": header + nocopy}
    for name, text in variants.items():
        with open(os.path.join(out, name + ".comp"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
