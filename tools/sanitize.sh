#!/usr/bin/env bash
# The sanitizer run (issue 7): builds the plugin, the runtime and the unit
# tests with AddressSanitizer + UndefinedBehaviorSanitizer
# (-DTAPESTRY_SANITIZE=ON) into build-asan, then runs the whole lit suite
# with that plugin loaded into clang-19 and opt-19. Idempotent: a second run
# only rebuilds what changed. Ends with "N passed, M failed, K skipped" and
# the count of sanitizer reports; exits non-zero if anything failed.
#
#   tools/sanitize.sh                 # clang++-19 builds it (the default)
#   SANITIZE_CXX=g++ SANITIZE_CC=gcc tools/sanitize.sh
#   BUILD_DIR=build-asan2 LIT_ARGS="--filter Errors" tools/sanitize.sh
#
# clang++-19 is the default compiler because its single runtime
# (libclang_rt.asan-x86_64.so, ASan and UBSan together) honours log_path for
# UBSan reports too; with GCC, libubsan is a separate runtime that always
# prints to stderr, so a UBSan report under `not %clang` could go unnoticed.
# clang-19 and opt-19 are not sanitized, so the plugin's ASan runtime must be
# loaded first: test/lit.cfg.py puts it in LD_PRELOAD for every command of a
# test, with UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1, and sends each
# report to a per-test log; a test with a report FAILS and shows it (even
# under `not %clang`, which would otherwise turn the sanitizer's exit code
# into a pass). LeakSanitizer is on in those processes as well (clang keeps
# its deliberate -disable-free leaks reachable; system tools and Python are
# suppressed): SANITIZE_LEAKS=0 turns it off. The unit tests are sanitized
# executables and need no preload. test/Leaks (LeakSanitizer on programs
# compiled with -fsanitize=address) runs here too.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-asan}
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
start=$SECONDS

# 1. Packages. tools/setup.sh installs the toolchain; clang's sanitizer
# runtimes (libclang-rt-19-dev) are checked here as well because test/Leaks
# and a clang-built plugin need them.
if ! dpkg-query -W -f='${Status}' libclang-rt-19-dev 2>/dev/null |
    grep -q "install ok installed"; then
  echo "sanitize: installing libclang-rt-19-dev"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    libclang-rt-19-dev || exit 1
fi

# 2. Configure. A compiler cannot change in an existing CMake build
# directory: start afresh if the requested one differs from the cached one.
# Compilers by absolute path (once installed), so the cache compares equal.
resolve() { command -v "$1" 2>/dev/null || echo "$1"; }
SANITIZE_CXX=$(resolve "${SANITIZE_CXX:-clang++-19}")
SANITIZE_CC=$(resolve "${SANITIZE_CC:-clang-19}")
cmake_args=(-DTAPESTRY_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
            -DCMAKE_CXX_COMPILER="$SANITIZE_CXX" -DCMAKE_C_COMPILER="$SANITIZE_CC")
cached=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' \
  "$BUILD_DIR/CMakeCache.txt" 2>/dev/null)
if [ -n "$cached" ] &&
   [ "$(readlink -f "$(resolve "$cached")")" != "$(readlink -f "$SANITIZE_CXX")" ]; then
  echo "sanitize: compiler changed ($cached -> $SANITIZE_CXX): new $BUILD_DIR"
  rm -rf "$BUILD_DIR"
fi
# Already configured: configure again (cheap; nothing is rebuilt unless a
# flag changed) so the options above hold.
if [ -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" "${cmake_args[@]}" >/dev/null || exit 1
fi

# 3. Install what else is missing, configure a new directory with
# CMAKE_ARGS, build (tools/setup.sh).
BUILD_DIR="$BUILD_DIR" CMAKE_ARGS="${cmake_args[*]}" TAPESTRY_SKIP_EXAMPLE=1 \
  tools/setup.sh || { echo "sanitize: the sanitized build failed"; exit 1; }
grep -q '^TAPESTRY_SANITIZE:BOOL=ON' "$BUILD_DIR/CMakeCache.txt" ||
  { echo "sanitize: $BUILD_DIR is not a sanitized build"; exit 1; }
# test/CMakeLists.txt writes lit.site.cfg.py before it looks for Python, so
# a first configure leaves %python empty; a second one fills it in.
if grep -q '^config.python = ""' "$BUILD_DIR/test/lit.site.cfg.py"; then
  cmake -S . -B "$BUILD_DIR" >/dev/null || exit 1
fi
build_done=$SECONDS

# 4. The ASan runtime the plugin was linked against, to preload.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")
if "$cxx" --version | grep -q clang; then
  cxx_id=Clang
  runtime=$("$cxx" -print-file-name=libclang_rt.asan-x86_64.so)
else
  cxx_id=GNU
  runtime=$("$cxx" -print-file-name=libasan.so)
fi
runtime=$(readlink -f "$runtime")
if [ ! -f "$runtime" ]; then
  echo "sanitize: cannot find the ASan runtime of $cxx ($runtime)"
  exit 1
fi
echo "sanitize: plugin built by $cxx ($cxx_id); preloading $runtime"

# 5. The whole suite. Reports of an earlier run are removed first; every
# test also clears its own before it runs.
find "$BUILD_DIR/test" -name '*.sanitizer.*' -delete 2>/dev/null
results="$BUILD_DIR/test/results.json"
# For the unit tests (sanitized executables, run directly by lit).
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:report_error_type=1
export ASAN_OPTIONS=detect_leaks=${SANITIZE_LEAKS:-1}:halt_on_error=1
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-19/bin/llvm-symbolizer
python3 "$lit" -sv --param asan_runtime="$runtime" \
  --param detect_leaks="${SANITIZE_LEAKS:-1}" --output "$results" \
  ${LIT_ARGS:-} "$BUILD_DIR/test" "$BUILD_DIR/test/Unit"
status=$?

# 6. Summary: the counts, then every sanitizer report with its test.
python3 - "$results" "$BUILD_DIR/test" <<'PY'
import glob, json, os, re, sys
tests = json.load(open(sys.argv[1]))["tests"]
good = {"PASS", "XFAIL"}
bad = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
marker = re.compile(r"ERROR: (Address|Leak)Sanitizer|runtime error:|"
                    r"SANITIZER REPORT")
findings = [t["name"] for t in tests
            if t["code"] in bad and marker.search(t.get("output", ""))]
logs = sorted(glob.glob(os.path.join(sys.argv[2], "**", "*.sanitizer.*"),
                        recursive=True))
if findings:
    print("\nsanitize: tests failing with a sanitizer report:")
    for name in findings:
        print("  " + name)
for path in logs:
    print("\n--- %s" % path)
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    print("\n".join(lines[:40]) + ("\n  ..." if len(lines) > 40 else ""))
passed = sum(t["code"] in good for t in tests)
failed = sum(t["code"] in bad for t in tests)
skipped = len(tests) - passed - failed
print(f"\nsanitize: {len(logs)} sanitizer report(s) logged, "
      f"{len(findings)} test(s) failing with a sanitizer report")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
echo "sanitize: build $((build_done - start))s, tests $((SECONDS - build_done))s"
exit $status
