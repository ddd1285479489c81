#!/usr/bin/env bash
# The MPI halo-exchange heat solver (tools/bench/mpi-heat.c) at 1, 2 and 4
# ranks (a fixed grid split among them): primal and gradient times, their
# ratio, and each one's speed-up over its own single-rank time. Prints a
# markdown table. Needs Open MPI (libopenmpi-dev, openmpi-bin).
#   tools/bench/run-mpi.sh [n] [steps]    (after tools/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=$(mktemp -d)
# shellcheck disable=SC2046
clang-19 -O2 -fpass-plugin="$BUILD_DIR/plugin/TapestryPlugin-19.so" \
  -Iinclude $(mpicc -showme:compile) tools/bench/mpi-heat.c \
  -L"$BUILD_DIR/runtime" -ltapestry-rt $(mpicc -showme:link) -lm \
  -o "$OUT/mpi-heat"
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Waiting ranks yield the core (they spin otherwise, which on a machine
# with other work, or with more ranks than cores, costs more than it saves).
export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
echo "| ranks | primal (ms) | gradient (ms) | gradient / primal | primal speed-up | gradient speed-up |"
echo "|---:|---:|---:|---:|---:|---:|"
p1="" g1=""
for r in 1 2 4; do
  out=$(mpirun --oversubscribe --allow-run-as-root -np "$r" "$OUT/mpi-heat" "$@") ||
    echo "mpi-heat: FAILED at $r ranks" >&2
  grep -v '^BENCH' <<<"$out" >&2 || true
  line=$(grep '^BENCH' <<<"$out")
  p=$(sed 's/.*primal_ms=\([^ ]*\).*/\1/' <<<"$line")
  g=$(sed 's/.*gradient_ms=\([^ ]*\).*/\1/' <<<"$line")
  q=$(sed 's/.*ratio=\([^ ]*\).*/\1/' <<<"$line")
  [ -z "$p1" ] && p1=$p g1=$g
  printf "| %d | %s | %s | %s | %.2f | %.2f |\n" "$r" "$p" "$g" "$q" \
    "$(awk -v a="$p1" -v b="$p" 'BEGIN { print a / b }')" \
    "$(awk -v a="$g1" -v b="$g" 'BEGIN { print a / b }')"
done
rm -rf "$OUT"
