#!/usr/bin/env python3
"""SPIR-V size and whole-process compile time: `sluice compile -O1` next to
`glslangValidator -V` + `spirv-opt -O`, GLSL file by file over the corpus
(glsl/, glsl/automap/ with --aml --amb, exec/*.frag).

For each shader: glslangValidator -V writes g.spv, spirv-opt -O g.spv writes
o.spv, and `sluice compile F -O1 -o s.spv` writes Sluice's; Sluice's output
must pass `spirv-val --target-env vulkan1.0` (else the file is listed as
invalid and left out, as is a file any tool rejects). Sizes are words
(bytes / 4). Times are the CPU time (user + system, wait4's rusage) of the
whole processes: Sluice's one against glslang's plus spirv-opt's, both run
alternately --runs times so that they see the same load; the per-shader
median is taken, and the median of those over the set is reported.

With --by-opcode N it also sums, over the shaders compared, the words of
each opcode in spirv-opt's and Sluice's modules and lists the N opcodes
whose totals differ most (names from SPIRV-Headers' grammar).

Usage (docs/performance.md, "SPIR-V size"):
    bench/spirv_size_report.py --sluice build/tools/sluice --corpus ../shared/corpus --runs 3 [--jobs N] [--tsv out.tsv] [--by-opcode 40]
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile

GRAMMAR = "/usr/include/spirv/unified1/spirv.core.grammar.json"


def corpus_files(root):
    """(set name, path, extra flags)."""
    files = []
    for ext in ("vert", "tesc", "tese", "geom", "frag", "comp"):
        files += [("glsl", p, []) for p in sorted(glob.glob(os.path.join(root, "glsl", "*." + ext)))]
        files += [("automap", p, ["--aml", "--amb"])
                  for p in sorted(glob.glob(os.path.join(root, "glsl", "automap", "*." + ext)))]
    files += [("exec", p, []) for p in sorted(glob.glob(os.path.join(root, "exec", "*.frag")))]
    return files


def run(argv):
    """(exit status, CPU seconds) of one process."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime


def words(path):
    return os.path.getsize(path) // 4


def words_by_opcode(path):
    """Counter: opcode -> words of the module's instructions with it (the
    5-word header counted as opcode -1)."""
    data = open(path, "rb").read()
    w = struct.unpack("<%dI" % (len(data) // 4), data)
    counts = collections.Counter({-1: 5})
    i = 5
    while i < len(w):
        n = w[i] >> 16
        counts[w[i] & 0xFFFF] += n
        i += max(n, 1)
    return counts


def opcode_names():
    try:
        with open(GRAMMAR) as f:
            return {i["opcode"]: i["opname"] for i in json.load(f)["instructions"]}
    except OSError:
        return {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sluice", required=True)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    ap.add_argument("--glslang", default="glslangValidator")
    ap.add_argument("--spirv-opt", default="spirv-opt")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tsv", help="per-file rows: set, file, glslang, spirv-opt, sluice words, times")
    ap.add_argument("--only", help="a substring the path must contain")
    ap.add_argument("--by-opcode", type=int, default=0, metavar="N",
                    help="also list the N opcodes whose summed words differ most between spirv-opt and Sluice")
    ap.add_argument("--jobs", type=int, default=1,
                    help="shaders at once (each still runs its commands in turn; 1 for the least noisy times)")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.corpus, "glsl")):
        sys.exit(f"error: no corpus at {args.corpus}")
    files = [f for f in corpus_files(args.corpus) if not args.only or args.only in f[1]]
    rows, skipped = [], []
    by_opcode = [collections.Counter(), collections.Counter()]  # spirv-opt, Sluice
    tsv = open(args.tsv, "w") if args.tsv else None
    if tsv:
        tsv.write("set\tfile\tglslang\tspirv_opt\tsluice_O1\tsluice_cpu_s\tglslang_spirv_opt_cpu_s\n")
    def one(item):
        """(row or None, why left out) for one shader, in its own directory."""
        set_name, path, flags = item
        with tempfile.TemporaryDirectory() as tmp:
            g, o, s = (os.path.join(tmp, n) for n in ("g.spv", "o.spv", "s.spv"))
            s_cpu, r_cpu = [], []
            for _ in range(args.runs):
                rc, c_s = run([args.sluice, "compile", path, "-O1", "-o", s] + flags)
                if rc:
                    return None, "sluice rejects it"
                rc, c_g = run([args.glslang, "-V", path, "-o", g] + flags)
                if rc:
                    return None, "glslang rejects it"
                rc, c_o = run([args.spirv_opt, "-O", g, "-o", o])
                if rc:
                    return None, "spirv-opt rejects it"
                s_cpu.append(c_s)
                r_cpu.append(c_g + c_o)
            if subprocess.run(["spirv-val", "--target-env", "vulkan1.0", s], capture_output=True).returncode:
                return None, "Sluice's SPIR-V fails spirv-val"
            opcodes = (words_by_opcode(o), words_by_opcode(s)) if args.by_opcode else None
            return (set_name, os.path.relpath(path, args.corpus), words(g), words(o), words(s),
                    statistics.median(s_cpu), statistics.median(r_cpu), opcodes), ""

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for item, (row, why) in zip(files, pool.map(one, files)):
            if row is None:
                skipped.append((item[0], item[1], why))
                continue
            if row[7]:
                by_opcode[0].update(row[7][0])
                by_opcode[1].update(row[7][1])
            row = row[:7]
            rows.append(row)
            if tsv:
                tsv.write("\t".join(str(x) for x in row) + "\n")
                tsv.flush()
    print(f"{len(rows)} shaders compared; {len(skipped)} left out")
    for set_name, path, why in skipped:
        print(f"  left out: {os.path.relpath(path, args.corpus)}: {why}")
    print("| set | shaders | glslang -V | spirv-opt -O | Sluice -O1 | Sluice / spirv-opt | Sluice <= spirv-opt |"
          " median CPU Sluice | median CPU glslang + spirv-opt |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in ("glsl", "automap", "exec", "all"):
        sel = [r for r in rows if name == "all" or r[0] == name]
        if not sel:
            continue
        gw, ow, sw = (sum(r[k] for r in sel) for k in (2, 3, 4))
        le = sum(1 for r in sel if r[4] <= r[3])
        print(f"| {name} | {len(sel)} | {gw:,} | {ow:,} | {sw:,} | {sw / ow:.3f} | {le} ({100 * le / len(sel):.1f}%) |"
              f" {1000 * statistics.median(r[5] for r in sel):.1f} ms |"
              f" {1000 * statistics.median(r[6] for r in sel):.1f} ms |")
    print("largest gaps (Sluice -O1 minus spirv-opt -O, words):")
    for r in sorted(rows, key=lambda r: r[3] - r[4])[:15]:
        print(f"  {r[1]}: {r[4]} vs {r[3]} ({r[4] - r[3]:+})")
    if args.by_opcode:
        names = opcode_names()
        opt, slu = by_opcode
        print(f"words by opcode over the {len(rows)} shaders (spirv-opt -O, Sluice -O1, difference), largest differences:")
        for op in sorted(set(opt) | set(slu), key=lambda k: -abs(slu[k] - opt[k]))[:args.by_opcode]:
            name = "(header)" if op == -1 else names.get(op, f"opcode {op}")
            print(f"  {name:28s} {opt[op]:8,} {slu[op]:8,} {slu[op] - opt[op]:+8,}")


if __name__ == "__main__":
    main()
