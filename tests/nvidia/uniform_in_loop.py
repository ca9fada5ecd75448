#!/usr/bin/env python3
"""Writes the reduction of the NVIDIA failure of GraphicsFuzz's
cov-function-loop-switch-increment-array-element-return (docs/workarounds.md,
"Uniform loads stay in their loop"): Sluice's GLSL of the test (A) and six
variants that each change one thing, each spliced as glslangValidator -V
SPIR-V assembly into a copy of the test's Amber script (its uniform buffer
and EXPECT), so `sluice xcheck --device gpu OUTDIR` runs them.

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


def main():
    exec_dir, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    amber = open(os.path.join(exec_dir, "cov-function-loop-switch-increment-array-element-return.amber")).read()
    start = amber.index("SHADER fragment variant_fragment_shader SPIRV-ASM")
    body = amber.index("\n", start) + 1
    end = amber.index("\nEND", body)
    for name, (cond, switch) in VARIANTS.items():
        frag = os.path.join(out, name + ".glsl.frag")
        with open(frag, "w") as f:
            f.write(BASE.replace("WHILECOND", cond).replace("SWITCH", switch))
        spv = os.path.join(out, name + ".spv")
        subprocess.run(["glslangValidator", "-V", frag, "-o", spv], check=True, capture_output=True)
        asm = subprocess.run(["spirv-dis", spv, "--raw-id"], check=True, capture_output=True, text=True).stdout
        os.remove(frag)
        os.remove(spv)
        with open(os.path.join(out, name + ".amber"), "w") as f:
            f.write(amber[:body] + asm.rstrip("\n") + amber[end:])


if __name__ == "__main__":
    main()
