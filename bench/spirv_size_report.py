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

Usage (docs/performance.md, "SPIR-V size"):
    bench/spirv_size_report.py --sluice build/tools/sluice --corpus ../shared/corpus --runs 3 [--jobs N] [--tsv out.tsv]
"""
import argparse
import concurrent.futures
import glob
import os
import statistics
import subprocess
import sys
import tempfile


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sluice", required=True)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    ap.add_argument("--glslang", default="glslangValidator")
    ap.add_argument("--spirv-opt", default="spirv-opt")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tsv", help="per-file rows: set, file, glslang, spirv-opt, sluice words, times")
    ap.add_argument("--only", help="a substring the path must contain")
    ap.add_argument("--jobs", type=int, default=1,
                    help="shaders at once (each still runs its commands in turn; 1 for the least noisy times)")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.corpus, "glsl")):
        sys.exit(f"error: no corpus at {args.corpus}")
    files = [f for f in corpus_files(args.corpus) if not args.only or args.only in f[1]]
    rows, skipped = [], []
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
            return (set_name, os.path.relpath(path, args.corpus), words(g), words(o), words(s),
                    statistics.median(s_cpu), statistics.median(r_cpu)), ""

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for item, (row, why) in zip(files, pool.map(one, files)):
            if row is None:
                skipped.append((item[0], item[1], why))
                continue
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


if __name__ == "__main__":
    main()
