#!/usr/bin/env python3
"""Writes the reduction of the NVIDIA failure of GraphicsFuzz's
cov-function-loop-switch-increment-array-element-return (docs/workarounds.md,
"reload-uniforms-in-loops"): Sluice's GLSL of the test (A) and six
variants that each change one thing, each spliced as glslangValidator -V
SPIR-V assembly into a copy of the test's Amber script (the GLSL beside it) (its uniform buffer
and EXPECT), so `sluice xcheck --device gpu OUTDIR` runs them.

The REDUCED variants go further: whole functions, each smaller than the
one before, each returning 4 (red) when run right; the last ones are the
minimal shader of docs/workarounds.md. Each comes with a twin that loads
the uniform in the loop condition instead (the `-reload` files).

Usage: uniform_in_loop.py CORPUS_EXEC_DIR OUTDIR
"""
import os
import subprocess
import sys

BASE = """#version 450
layout(set = 0, binding = 0) uniform buf0 { int _GLF_uniform_int_values[4]; } buf0_1;
layout(location = 0) out vec4 _GLF_color;
int func() {
    const int t2 = buf0_1._GLF_uniform_int_values[1];
    int a = t2;
    int b = t2;
    int arr[6] = int[6](t2, t2, t2, t2, t2, t2);
    while (WHILECOND) {
        const int t30 = b;
        b = t30 + 1;
        a = t30;
        for (int i = 0; i < 3; i += 1) {
            const int t34 = a;
            SWITCH
        }
    }
    return buf0_1._GLF_uniform_int_values[0];
}
void main() {
    if (func() == buf0_1._GLF_uniform_int_values[2]) {
        _GLF_color = vec4(1.0, 0.0, 0.0, 1.0);
    } else {
        _GLF_color = vec4(0.0);
    }
}
"""
FULL = """switch (t34) {
                case 2: arr[t34] += 1; break;
                case 3: return arr[buf0_1._GLF_uniform_int_values[3]];
                case 5: arr[t34] += 1; break;
            }"""
IFS = ("if (t34 == 2) { arr[t34] += 1; } else if (t34 == 3) { return arr[buf0_1._GLF_uniform_int_values[3]]; }"
       " else if (t34 == 5) { arr[t34] += 1; }")
VARIANTS = {
    "A-sluice-shape": ("b >= t2", FULL),
    "B-reload-uniform": ("b >= buf0_1._GLF_uniform_int_values[1]", FULL),
    "C-no-case5": ("b >= t2", FULL.replace("                case 5: arr[t34] += 1; break;\n", "")),
    "D-const-index": ("b >= t2", FULL.replace("arr[buf0_1._GLF_uniform_int_values[3]]", "arr[2]")),
    "E-if-chain": ("b >= t2", IFS),
    "F-const-cond": ("b >= 1", FULL),
    "G-no5-constidx-if": ("b >= t2", IFS.replace(" else if (t34 == 5) { arr[t34] += 1; }", "")
                          .replace("arr[buf0_1._GLF_uniform_int_values[3]]", "arr[2]")),
}

# func() bodies; buf0_1._GLF_uniform_int_values holds [0, 1, 4, 2], so
# `one` is 1 and each returns 4 when run right. None has undefined
# behaviour: every loop leaves through its return when b (or a) reaches 3,
# long before b could overflow.
REDUCED_MAIN = """#version 450
layout(set = 0, binding = 0) uniform buf0 { int _GLF_uniform_int_values[4]; } buf0_1;
layout(location = 0) out vec4 _GLF_color;
int func() {
    const int one = buf0_1._GLF_uniform_int_values[1];
BODY
}
void main() {
    _GLF_color = func() == buf0_1._GLF_uniform_int_values[2] ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0);
}
"""
REDUCED = {
    # G as a whole function (the reference point of the reduced set).
    "G2-array": """    int a = one; int b = one;
    int arr[6] = int[6](one, one, one, one, one, one);
    while (b >= one) {
        a = b; b = b + 1;
        for (int i = 0; i < 3; i += 1) {
            if (a == 2) { arr[a] += 1; } else if (a == 3) { return arr[2]; }
        }
    }
    return 0;""",
    # G2 without the inner loop.
    "M-array-no-inner-loop": """    int a = one; int b = one;
    int arr[6] = int[6](one, one, one, one, one, one);
    while (b >= one) {
        a = b; b = b + 1;
        if (a == 2) { arr[a] += 3; } else if (a == 3) { return arr[2]; }
    }
    return 0;""",
    # M with constant indices only.
    "N-array-constant-index": """    int a = one; int b = one;
    int arr[6] = int[6](one, one, one, one, one, one);
    while (b >= one) {
        a = b; b = b + 1;
        if (a == 2) { arr[2] += 3; } else if (a == 3) { return arr[2]; }
    }
    return 0;""",
    # M with an array of constants.
    "O-array-of-constants": """    int a = one; int b = one;
    int arr[6] = int[6](1, 1, 1, 1, 1, 1);
    while (b >= one) {
        a = b; b = b + 1;
        if (a == 2) { arr[a] += 3; } else if (a == 3) { return arr[2]; }
    }
    return 0;""",
    # M with one counter and a 3-element array.
    "P-array-one-counter": """    int b = one;
    int arr[3] = int[3](one, one, one);
    while (b >= one) {
        if (b == 2) { arr[b] += 3; } else if (b == 3) { return arr[2]; }
        b = b + 1;
    }
    return 0;""",
    # G without the array: a counter instead.
    "H-counter": """    int a = one; int b = one; int c = one;
    while (b >= one) {
        a = b; b = b + 1;
        for (int i = 0; i < 3; i += 1) {
            if (a == 2) { c += 1; } else if (a == 3) { return c; }
        }
    }
    return 0;""",
    # H without the inner loop.
    "I-no-inner-loop": """    int a = one; int b = one; int c = one;
    while (b >= one) {
        a = b; b = b + 1;
        if (a == 2) { c += 3; } else if (a == 3) { return c; }
    }
    return 0;""",
    # I returning a constant: only the exit matters.
    "J-return-constant": """    int a = one; int b = one;
    while (b >= one) {
        a = b; b = b + 1;
        if (a == 3) { return 4; }
    }
    return 0;""",
    # J without the copy of b.
    "K-one-counter": """    int b = one;
    while (b >= one) {
        if (b == 3) { return 4; }
        b = b + 1;
    }
    return 0;""",
    # K counting from 0: the loop condition compares with the uniform only.
    "L-from-zero": """    int b = 0;
    while (b >= one - 1) {
        if (b == 2) { return 4; }
        b = b + 1;
    }
    return 0;""",
}


def splice(amber, body, end, out, name, glsl):
    # The GLSL stays beside the script: xcheck runs Sluice's variants from it.
    frag = os.path.join(out, name + ".frag")
    with open(frag, "w") as f:
        f.write(glsl)
    spv = os.path.join(out, name + ".spv")
    subprocess.run(["glslangValidator", "-V", frag, "-o", spv], check=True, capture_output=True)
    asm = subprocess.run(["spirv-dis", spv, "--raw-id"], check=True, capture_output=True, text=True).stdout
    os.remove(spv)
    with open(os.path.join(out, name + ".amber"), "w") as f:
        f.write(amber[:body] + asm.rstrip("\n") + amber[end:])


def main():
    exec_dir, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    amber = open(os.path.join(exec_dir, "cov-function-loop-switch-increment-array-element-return.amber")).read()
    start = amber.index("SHADER fragment variant_fragment_shader SPIRV-ASM")
    body = amber.index("\n", start) + 1
    end = amber.index("\nEND", body)
    for name, (cond, switch) in VARIANTS.items():
        splice(amber, body, end, out, name, BASE.replace("WHILECOND", cond).replace("SWITCH", switch))
    for name, func in REDUCED.items():
        splice(amber, body, end, out, name, REDUCED_MAIN.replace("BODY", func))
        reload = func.replace("(b >= one", "(b >= buf0_1._GLF_uniform_int_values[1]")
        splice(amber, body, end, out, name + "-reload", REDUCED_MAIN.replace("BODY", reload))

if __name__ == "__main__":
    main()
