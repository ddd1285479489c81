#!/usr/bin/env bash
# The OpenMP stencil (tools/bench/omp-stencil.c) at 1, 2 and 4 threads:
# primal and gradient times, their ratio, and each one's speed-up over its
# own single-thread time. Prints a markdown table.
#   tools/bench/run-omp.sh [n] [steps]    (after tools/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=$(mktemp -d)
clang-19 -O2 -fopenmp -fpass-plugin="$BUILD_DIR/plugin/TapestryPlugin-19.so" \
  -Iinclude tools/bench/omp-stencil.c -L"$BUILD_DIR/runtime" -ltapestry-rt \
  -lm -o "$OUT/omp-stencil"
echo "| threads | primal (ms) | gradient (ms) | gradient / primal | primal speed-up | gradient speed-up |"
echo "|---:|---:|---:|---:|---:|---:|"
p1="" g1=""
for t in 1 2 4; do
  out=$(OMP_NUM_THREADS=$t "$OUT/omp-stencil" "$@") || echo "omp-stencil: FAILED at $t threads" >&2
  grep -v '^BENCH' <<<"$out" >&2 || true
  line=$(grep '^BENCH' <<<"$out")
  p=$(sed 's/.*primal_ms=\([^ ]*\).*/\1/' <<<"$line")
  g=$(sed 's/.*gradient_ms=\([^ ]*\).*/\1/' <<<"$line")
  r=$(sed 's/.*ratio=\([^ ]*\).*/\1/' <<<"$line")
  [ -z "$p1" ] && p1=$p g1=$g
  printf "| %d | %s | %s | %s | %.2f | %.2f |\n" "$t" "$p" "$g" "$r" \
    "$(awk -v a="$p1" -v b="$p" 'BEGIN { print a / b }')" \
    "$(awk -v a="$g1" -v b="$g" 'BEGIN { print a / b }')"
done
rm -rf "$OUT"
