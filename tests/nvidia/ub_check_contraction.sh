#!/usr/bin/env bash
# Does floating-point contraction explain why ub-check's instrumented -O1
# SPIR-V of raymarch.frag and particles.comp computes slightly different
# floats than plain -O1 on NVIDIA (docs/ub-check.md, "Run time")?
#
# SPIR-V lets a driver contract a * b + c into one fma (one rounding
# instead of two) unless the result is decorated NoContraction; a driver
# that decides per code shape can contract differently once ub-check's
# guards surround the same expressions. `--fp-contract=off` decorates every
# float operation of Sluice's SPIR-V NoContraction. This runs
# `sluice bench-run --variants sluice-O1,sluice-O1-ub-check` on both shaders
# with the default (--fp-contract=on) and with --fp-contract=off, and prints
# for each whether the instrumented variant's results equal plain -O1's
# (bench-run's own comparison, exec/compare.h, bit for bit by default) and,
# where not, bench-run's description of the first difference.
#
# Usage: tests/nvidia/ub_check_contraction.sh [--device gpu|cpu] [--sluice PATH] [--max-ulps N]
#   --device gpu (default): the sizes of docs/ub-check.md's NVIDIA table
#                (raymarch at its default grid and ITER, particles with
#                --iter 2048), 20 timed runs after 3 warm-up runs.
#   --device cpu: lavapipe, small sizes (--grid-divisor 16 --iter 2).
#   --sluice:    the binary (default: `sluice` on PATH, else build/tools/sluice).
#   --max-ulps:  floats within N units in the last place count as equal
#                (default 0: bit for bit; bench-run's and xcheck's own is 4).
# Run from the repository root (it reads bench/gpu/). Exit code 0 when all
# four comparisons gave a verdict (equal or not), 1 when a run failed
# otherwise (a check fired, a compile or device error: see the log lines).
set -u

device=gpu
sluice=
max_ulps=0
while [ $# -gt 0 ]; do
  case "$1" in
    --device) device="$2"; shift 2 ;;
    --sluice) sluice="$2"; shift 2 ;;
    --max-ulps) max_ulps="$2"; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ub_check_contraction.sh: unknown argument '$1' (--device gpu|cpu, --sluice PATH, --max-ulps N)" >&2; exit 2 ;;
  esac
done
if [ -z "$sluice" ]; then
  if command -v sluice >/dev/null; then sluice=$(command -v sluice); else sluice=build/tools/sluice; fi
fi
if [ ! -x "$sluice" ]; then echo "ub_check_contraction.sh: no sluice binary at '$sluice' (--sluice PATH)" >&2; exit 2; fi
if [ ! -d bench/gpu ]; then echo "ub_check_contraction.sh: run it from the repository root (bench/gpu/ not found)" >&2; exit 2; fi

case "$device" in
  gpu)
    common=(--device gpu --repeats 20 --warmup 3 --workarounds none)
    raymarch=()
    particles=(--iter 2048) ;;
  cpu)
    common=(--device cpu --repeats 3 --warmup 1 --workarounds none --grid-divisor 16)
    raymarch=(--iter 2)
    particles=(--iter 2) ;;
  *) echo "ub_check_contraction.sh: --device gpu or cpu, not '$device'" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "sluice: $sluice"
status=0
summary="| shader | --fp-contract | ub-check equals plain -O1 (within $max_ulps ulps) | -O1 ms | ub-check ms | -O1 words | ub-check words | first difference |
|---|---|---|---|---|---|---|---|"
for contract in on off; do
  for shader in raymarch.frag particles.comp; do
    if [ "$shader" = raymarch.frag ]; then extra=("${raymarch[@]}"); else extra=("${particles[@]}"); fi
    tsv="$work/$shader.$contract.tsv"
    log="$work/$shader.$contract.log"
    cmd=("$sluice" bench-run "bench/gpu/$shader" "${common[@]}" "${extra[@]}" --fp-contract="$contract" --max-ulps "$max_ulps"
         --variants sluice-O1,sluice-O1-ub-check --tsv "$tsv")
    echo
    echo "\$ ${cmd[*]}"
    "${cmd[@]}" 2>"$log"
    cat "$log"
    # bench-run's TSV: shader, variant, words, median_ms, min_ms, max_ms,
    # agrees (yes/no against the first variant, here sluice-O1). A variant
    # where a check fired or that failed has no row.
    row() { awk -F'\t' -v v="$1" -v c="$2" '$2 == v { print $c }' "$tsv" 2>/dev/null; }
    agrees=$(row sluice-O1-ub-check 7)
    difference=$(grep -m1 ' differs from ' "$log" | sed 's/^.* differs from sluice-O1: //')
    case "$agrees" in
      yes) verdict=yes ;;
      no) verdict=no ;;
      *) verdict="no verdict (see the log above)"; status=1 ;;
    esac
    summary+="
| $shader | $contract | $verdict | $(row sluice-O1 4) | $(row sluice-O1-ub-check 4) | $(row sluice-O1 3) | $(row sluice-O1-ub-check 3) | ${difference:-–} |"
  done
done
echo
echo "$summary"
exit $status
