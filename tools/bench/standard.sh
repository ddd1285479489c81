#!/usr/bin/env bash
# The standard AD benchmark problems (tools/bench/standard), side by side:
# the hand-written derivative, Tapestry, ADOL-C and Sacado, every derivative
# checked against the hand-written one. Installs the peers if missing,
# builds every problem x tool at -O2 (compile time and compiler peak memory
# measured), runs every problem x size x tool interleaved for a number of
# rounds, with glibc's default allocator and with a tuned one, and prints a
# markdown table per problem and size.
#
#   tools/bench/standard.sh                  small and medium sizes, 5 rounds
#   tools/bench/standard.sh --full           also the large sizes
#   tools/bench/standard.sh --rounds 3 --problems "gmm lse" --sizes small
#
# Environment: BUILD_DIR (default build), ADBENCH_DATA (default
# ../shared/data/adbench), BENCH_TIMEOUT (seconds per run, default 300),
# BENCH_MEM_KB (address-space limit per run, default 8000000).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD_DIR=${BUILD_DIR:-build}
PLUGIN=$(realpath "$BUILD_DIR/plugin/TapestryPlugin-19.so")
RUNTIME=$(realpath "$BUILD_DIR/runtime")
export ADBENCH_DATA
ADBENCH_DATA=$(realpath "${ADBENCH_DATA:-../shared/data/adbench}")
TIMEOUT=${BENCH_TIMEOUT:-300}
MEM_KB=${BENCH_MEM_KB:-8000000}

rounds=5
sizes="small medium"
problems="gmm ba hand hand-complicated lstm ode lse llsq kmeans det particle saddle"
tools="hand tapestry adolc sacado"
while (($#)); do
  case "$1" in
  --full) sizes="small medium large" ;;
  --rounds) rounds=$2; shift ;;
  --sizes) sizes=$2; shift ;;
  --problems) problems=$2; shift ;;
  --tools) tools=$2; shift ;;
  *) echo "usage: $0 [--full] [--rounds N] [--sizes S] [--problems P]" \
       "[--tools T]" >&2; exit 2 ;;
  esac
  shift
done

# Peers, from Debian. Sacado's headers need Kokkos' (a packaging gap).
packages=(libadolc-dev libtrilinos-sacado-dev libtrilinos-kokkos-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "standard.sh: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
SRC=tools/bench/standard
CXX=clang++-19
FLAGS=(-O2 -std=c++17 -I/usr/include/trilinos)

# Kokkos-free Sacado: no k-means (it needs Sacado's Fad, see the README);
# no peer for the nested derivatives (particle, saddle).
skip() {
  [[ "$1" == sacado && "$2" == kmeans ]] ||
    [[ ("$1" == sacado || "$1" == adolc) && ("$2" == particle || "$2" == saddle) ]]
}

# compile <tool> <problem> <output> [extra flags]: object timed by
# /usr/bin/time (user and system CPU seconds and peak RSS in KB into
# <output>.ctime), then linked.
compile() {
  local tool=$1 p=$2 o=$3
  shift 3
  local extra=() libs=()
  case $tool in
  tapestry) extra=(-fpass-plugin="$PLUGIN"); libs=(-L"$RUNTIME" -ltapestry-rt) ;;
  tapestry-noplugin) extra=() ;;
  adolc) libs=(-ladolc) ;;
  esac
  local def=${tool%-noplugin}
  /usr/bin/time -f "%U %S %M" -o "$o.ctime" \
    "$CXX" "${FLAGS[@]}" -DTOOL_${def^^} "${extra[@]}" "$@" -c "$SRC/$p.cpp" \
    -o "$o.o" || { echo "standard.sh: $tool $p does not compile" >&2; return 1; }
  [[ $tool == tapestry-noplugin ]] && return 0
  "$CXX" "$o.o" "${libs[@]}" -lm -o "$o"
}

echo "standard.sh: building ($problems) x ($tools)" >&2
for p in $problems; do
  for t in $tools; do
    skip "$t" "$p" && continue
    compile "$t" "$p" "$OUT/$p.$t" || true
  done
  if [[ " $tools " == *" tapestry "* ]]; then
    # Plain clang on the same source (no derivative code: the baseline of
    # the plugin's compile time), and a binary counting tape bytes.
    compile tapestry-noplugin "$p" "$OUT/$p.plain" || true
    compile tapestry "$p" "$OUT/$p.stats" -fplugin="$PLUGIN" \
      -mllvm -tapestry-tape-stats || true
  fi
done

tuned=(MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_TOP_PAD_=268435456
       MALLOC_MMAP_THRESHOLD_=1073741824)
run() { # run <alloc> <binary> <size>
  local alloc=$1 bin=$2 size=$3 envs=()
  [[ $alloc == tuned ]] && envs=("${tuned[@]}")
  local line rc=0
  line=$(ulimit -v "$MEM_KB"; env "${envs[@]}" timeout "$TIMEOUT" "$bin" "$size" \
    2>"$OUT/err") || rc=$?
  if [[ $line != RESULT* ]]; then
    line="RESULT problem=$(basename "${bin%%.*}") size=$size tool=${bin##*.} primal_ms=nan deriv_ms=nan tape_bytes=- check=ERROR(rc=$rc) maxerr=nan"
    head -c 300 "$OUT/err" >&2 || true
  fi
  echo "$line alloc=$alloc"
}

for p in $problems; do
  for s in $sizes; do
    [[ -x $OUT/$p.stats ]] &&
      BENCH_TAPE_STATS=1 "$OUT/$p.stats" "$s" --once 2>/dev/null |
      sed 's/tool=tapestry/tool=stats/' >>"$OUT/log" || true
  done
done
for ((r = 1; r <= rounds; r++)); do
  echo "standard.sh: round $r of $rounds" >&2
  for alloc in default tuned; do
    for p in $problems; do
      for s in $sizes; do
        for t in $tools; do
          [[ -x $OUT/$p.$t ]] || continue
          run "$alloc" "$OUT/$p.$t" "$s" >>"$OUT/log"
        done
      done
    done
  done
done

python3 - "$OUT" "$problems" "$sizes" "$tools" "$rounds" <<'PY'
import glob, os, re, statistics, sys
out, problems, sizes, tools, rounds = sys.argv[1:6]
runs = {}
stats = {}
for line in open(os.path.join(out, "log")):
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    key = (f["problem"], f["size"], f["tool"])
    if f["tool"] == "stats":
        stats[(f["problem"], f["size"])] = f["tape_bytes"]
        continue
    runs.setdefault(key + (f["alloc"],), []).append(f)

def num(x):
    try:
        return float(x)
    except ValueError:
        return float("nan")

def ctime(p, t):
    try:
        u, s, kb = open(os.path.join(out, f"{p}.{t}.ctime")).read().split()[-3:]
        return float(u) + float(s), int(kb) / 1024
    except (OSError, ValueError):
        return None

def med(v):
    v = [x for x in v if x == x]
    return statistics.median(v) if v else float("nan")

def fmt(x, digits=3):
    if x != x:
        return "-"
    return f"{x:.{digits}g}" if abs(x) < 1000 else f"{x:.0f}"

print(f"Rounds: {rounds}; times in ms (min / median, spread = (max - min) "
      "/ median); ratios of medians; 'tuned' = MALLOC_TRIM_THRESHOLD_, "
      "MALLOC_TOP_PAD_, MALLOC_MMAP_THRESHOLD_ raised; compile = CPU seconds "
      "(user + system) of one compile to an object.\n")
summary = {}
for p in problems.split():
    for s in sizes.split():
        if not any((p, s, t, "default") in runs for t in tools.split()):
            continue
        hand = {a: med([num(f["deriv_ms"]) for f in runs.get((p, s, "hand", a), [])])
                for a in ("default", "tuned")}
        print(f"### {p} {s}\n")
        print("| tool | primal ms (min / med) | derivative ms (min / med) | spread "
              "| deriv / primal | deriv / hand | tuned: deriv ms (med) | tuned: "
              "deriv / hand | tape bytes | compile s | compiler MB | check |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for t in tools.split():
            d = runs.get((p, s, t, "default"))
            if not d:
                continue
            tu = runs.get((p, s, t, "tuned"), [])
            pr = [num(f["primal_ms"]) for f in d]
            dv = [num(f["deriv_ms"]) for f in d]
            dtu = med([num(f["deriv_ms"]) for f in tu])
            dm, pm = med(dv), med(pr)
            good = [x for x in dv if x == x]
            spread = (max(good) - min(good)) / dm if good and dm else float("nan")
            checks = {f["check"] for f in d + tu}
            check = "OK" if checks == {"OK"} else "/".join(sorted(checks - {"OK"}))
            tape = d[0]["tape_bytes"]
            if t == "tapestry":
                tape = stats.get((p, s), "-")
            ct = ctime(p, t)
            cts = f"{ct[0]:.2f}" if ct else "-"
            cms = f"{ct[1]:.0f}" if ct else "-"
            summary[(p, s, t)] = (dm / hand["default"], dtu / hand["tuned"], check)
            print(f"| {t} | {fmt(min(pr) if pr else float('nan'))} / {fmt(pm)} "
                  f"| {fmt(min(good) if good else float('nan'))} / {fmt(dm)} "
                  f"| {100 * spread:.0f}% | {fmt(dm / pm)} "
                  f"| {fmt(dm / hand['default'])} | {fmt(dtu)} "
                  f"| {fmt(dtu / hand['tuned'])} | {tape} | {cts} | {cms} | {check} |")
        print()
import math
print("Summary: derivative / hand-written (medians), default allocator / "
      "tuned; geomean over the problems and sizes where the hand-written "
      "derivative is the same algorithm's (all but saddle, whose hand-written "
      "derivative is a closed form).\n")
tl = tools.split()
print("| problem | size | " + " | ".join(tl) + " |")
print("|---|---|" + "---:|" * len(tl))
logs = {t: ([], []) for t in tl}
for p in problems.split():
    for s in sizes.split():
        if not any((p, s, t) in summary for t in tl):
            continue
        row = []
        for t in tl:
            r = summary.get((p, s, t))
            if not r:
                row.append("-")
                continue
            row.append(f"{fmt(r[0])} / {fmt(r[1])}" + ("" if r[2] == "OK" else f" {r[2]}"))
            if p != "saddle":
                for k in (0, 1):
                    if r[k] == r[k] and r[k] > 0:
                        logs[t][k].append(math.log(r[k]))
        print(f"| {p} | {s} | " + " | ".join(row) + " |")
def gm(v):
    return fmt(math.exp(sum(v) / len(v))) if v else "-"
print("| geomean | | " + " | ".join(
    f"{gm(logs[t][0])} / {gm(logs[t][1])} ({len(logs[t][0])})" for t in tl) + " |")
print()
print("Compile time of the Tapestry source with the plugin against plain clang "
      "on the same source (no derivative code generated):\n")
print("| problem | plain clang s | plain MB | with plugin s | plugin MB | ratio |")
print("|---|---:|---:|---:|---:|---:|")
for p in problems.split():
    a, b = ctime(p, "plain"), ctime(p, "tapestry")
    if a and b:
        print(f"| {p} | {a[0]:.2f} | {a[1]:.0f} | {b[0]:.2f} | {b[1]:.0f} | "
              f"{b[0] / a[0]:.2f} |")
PY
