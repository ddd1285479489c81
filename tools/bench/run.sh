#!/usr/bin/env bash
# Benchmarks: primal time, gradient time, their ratio and tape bytes per
# gradient call, at -O2, best of 5, on fixed inputs. Prints a markdown table.
#   tools/bench/run.sh            (after tools/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build}
DATA=${ADBENCH_DATA:-../shared/data/adbench}
OUT=$(mktemp -d)
cc() {
  clang-19 -O2 -march=native \
    -fpass-plugin="$BUILD_DIR/plugin/TapestryPlugin-19.so" \
    -fplugin="$BUILD_DIR/plugin/TapestryPlugin-19.so" -mllvm -tapestry-tape-stats \
    -Iinclude \
    "$1" -L"$BUILD_DIR/runtime" -ltapestry-rt -lm -o "$2"
}
cc tools/bench/linalg.c "$OUT/linalg"
cc tools/bench/heat.c "$OUT/heat"
cc tools/bench/gmm.c "$OUT/gmm"
cc tools/bench/batch.c "$OUT/batch"
{
  "$OUT/linalg"
  "$OUT/heat" 1000 1000
  for f in gmm_d2_K5 gmm_d10_K5 gmm_d10_K25 gmm_d20_K25; do
    "$OUT/gmm" "$DATA/gmm/1k/$f.txt"
  done
} | tee "$OUT/log" | grep -v '^BENCH' >&2
echo "| kernel | primal (ms) | gradient (ms) | gradient / primal | tape bytes |"
echo "|---|---:|---:|---:|---:|"
sed -n 's/^BENCH \([^ ]*\) primal_ms=\([^ ]*\) gradient_ms=\([^ ]*\) ratio=\([^ ]*\) tape_bytes=\([^ ]*\)$/| \1 | \2 | \3 | \4 | \5 |/p' "$OUT/log"
echo
echo "Batch mode: one sweep of width W against W scalar sweeps (ratio < 1: batch wins)"
echo
echo "| kernel | width | batched (ms) | W scalar sweeps (ms) | ratio |"
echo "|---|---:|---:|---:|---:|"
"$OUT/batch" "$DATA/ba/ba1_n49_m7776_p31843.txt" | tee -a "$OUT/log" | sed -n 's/^BATCH \([^ ]*\) width=\([^ ]*\) batched_ms=\([^ ]*\) scalar_ms=\([^ ]*\) ratio=\([^ ]*\)$/| \1 | \2 | \3 | \4 | \5 |/p'
grep -q "jacobian check OK" "$OUT/log" || echo "batch: JACOBIAN CHECK FAILED" >&2
rm -rf "$OUT"
