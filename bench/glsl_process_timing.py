#!/usr/bin/env python3
"""Whole-process GLSL -> SPIR-V time: `sluice compile` next to `glslangValidator -V`.

For every shader of the corpus the two commands run alternately, R times
each, so both see the same machine load; each process's CPU time (user +
system, from wait4's rusage) and wall time are recorded and the per-shader
median taken. Files either tool rejects are counted and left out of the
comparison. A batch run then compiles the whole set with one
`sluice compile a b ... -o DIR` (all cores) against a loop of
glslangValidator processes, alternating B times.

Usage (docs/performance.md, "GLSL front end"):
    bench/glsl_process_timing.py --sluice build-glslfe/tools/sluice \
        --corpus /work/shared/corpus --runs 5 --batch-runs 3
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time


def corpus_files(root):
    """(path, extra flags) for glsl/, glsl/automap (--aml --amb) and exec/*.frag."""
    files = []
    for ext in ("vert", "frag", "comp"):
        files += [(p, []) for p in sorted(glob.glob(os.path.join(root, "glsl", "*." + ext)))]
        files += [(p, ["--aml", "--amb"]) for p in sorted(glob.glob(os.path.join(root, "glsl", "automap", "*." + ext)))]
    files += [(p, []) for p in sorted(glob.glob(os.path.join(root, "exec", "*.frag")))]
    return files


def run(argv):
    """Runs argv; returns (exit status, CPU seconds, wall seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime, wall


def per_shader(args, files, out_dir):
    rows = []  # (path, sluice cpu, glslang cpu, sluice wall, glslang wall)
    rejected = {"sluice": 0, "glslang": 0}
    for path, flags in files:
        sluice = [args.sluice, "compile", path, "-o", os.path.join(out_dir, "x.spv")] + flags
        glslang = [args.glslang, "-V", path, "-o", os.path.join(out_dir, "y.spv")] + flags
        s_cpu, g_cpu, s_wall, g_wall = [], [], [], []
        ok = True
        for _ in range(args.runs):
            rc_s, c, w = run(sluice)
            s_cpu.append(c), s_wall.append(w)
            rc_g, c, w = run(glslang)
            g_cpu.append(c), g_wall.append(w)
            if rc_s or rc_g:
                rejected["sluice"] += rc_s != 0
                rejected["glslang"] += rc_g != 0
                ok = False
                break
        if ok:
            rows.append((path, statistics.median(s_cpu), statistics.median(g_cpu),
                         statistics.median(s_wall), statistics.median(g_wall)))
    return rows, rejected


def batch(args, files, out_dir):
    """Median CPU and wall seconds of one batch sluice run and of a glslangValidator loop."""
    s_cpu, s_wall, g_cpu, g_wall = [], [], [], []
    plain = [p for p, f in files if not f]
    mapped = [p for p, f in files if f]
    for _ in range(args.batch_runs):
        cpu = wall = 0.0
        for paths, flags in ((plain, []), (mapped, ["--aml", "--amb"])):
            rc, c, w = run([args.sluice, "compile"] + paths + ["-o", os.path.join(out_dir, "batch")] + flags)
            if rc:
                print(f"warning: the batch sluice run exited with {rc}")
            cpu, wall = cpu + c, wall + w
        s_cpu.append(cpu), s_wall.append(wall)
        cpu = wall = 0.0
        for path, flags in files:
            _, c, w = run([args.glslang, "-V", path, "-o", os.path.join(out_dir, "y.spv")] + flags)
            cpu, wall = cpu + c, wall + w
        g_cpu.append(cpu), g_wall.append(wall)
    return (statistics.median(s_cpu), statistics.median(s_wall), statistics.median(g_cpu), statistics.median(g_wall))


def instructions(argv):
    """Instructions the process executes (valgrind --tool=callgrind), or None."""
    with tempfile.NamedTemporaryFile() as out:
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out.name] + argv,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in done.stderr.splitlines():
            if "Collected" in line:
                return int(line.split()[-1])
    return None


def instruction_counts(args, files, out_dir):
    """Per file (every args.instructions-th): (sluice, glslang) instruction counts."""
    rows = []
    for path, flags in files[::args.instructions]:
        s = instructions([args.sluice, "compile", path, "-o", os.path.join(out_dir, "x.spv")] + flags)
        g = instructions([args.glslang, "-V", path, "-o", os.path.join(out_dir, "y.spv")] + flags)
        if s and g:
            rows.append((path, s, g))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sluice", required=True)
    ap.add_argument("--glslang", default="glslangValidator")
    ap.add_argument("--corpus", default="/work/shared/corpus")
    ap.add_argument("--runs", type=int, default=5, help="runs of each command per shader")
    ap.add_argument("--batch-runs", type=int, default=3, help="0 skips the batch comparison")
    ap.add_argument("--only", default="", help="substring a path must contain (for quick runs)")
    ap.add_argument("--instructions", type=int, default=0,
                    help="also count instructions (callgrind) on every N-th file; 0: no")
    args = ap.parse_args()
    files = [f for f in corpus_files(args.corpus) if args.only in f[0]]
    print(f"load before: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as out_dir:
        if args.runs > 0:
            timings(args, files, out_dir)
        if args.instructions > 0:
            counted = instruction_counts(args, files, out_dir)
            s = statistics.median(r[1] for r in counted)
            g = statistics.median(r[2] for r in counted)
            fewer = sum(r[1] < r[2] for r in counted)
            print(f"instructions (callgrind, {len(counted)} files): median sluice {s / 1e6:.1f} M, glslang "
                  f"{g / 1e6:.1f} M, ratio {s / g:.4f}; sluice fewer on {fewer}")
    print(f"load after: {os.getloadavg()}")


def timings(args, files, out_dir):
    """Per-shader medians, their distribution, then the batch comparison."""
    rows, rejected = per_shader(args, files, out_dir)
    if not rows:
        sys.exit("no shader compiled with both tools")
    for name, index in (("CPU", 1), ("wall", 3)):
        s = statistics.median(r[index] for r in rows)
        g = statistics.median(r[index + 1] for r in rows)
        faster = sum(r[index] < r[index + 1] for r in rows)
        ratios = sorted(r[index] / r[index + 1] for r in rows)
        q = statistics.quantiles(ratios, n=10)
        print(f"{name}: median per shader sluice {s * 1e3:.2f} ms, glslang {g * 1e3:.2f} ms, "
              f"ratio {s / g:.3f}; sluice faster on {faster} of {len(rows)}; "
              f"sluice/glslang per file: p10 {q[0]:.2f} median {statistics.median(ratios):.2f} p90 {q[-1]:.2f}")
    print(f"compared {len(rows)} of {len(files)} files; rejected by sluice {rejected['sluice']}, "
          f"by glslang {rejected['glslang']}")
    if args.batch_runs > 0:
        both = set(r[0] for r in rows)
        s_cpu, s_wall, g_cpu, g_wall = batch(args, [f for f in files if f[0] in both], out_dir)
        print(f"batch of {len(both)}: sluice CPU {s_cpu:.2f} s wall {s_wall:.2f} s; "
              f"glslang loop CPU {g_cpu:.2f} s wall {g_wall:.2f} s")


if __name__ == "__main__":
    main()
