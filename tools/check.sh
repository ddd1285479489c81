#!/usr/bin/env bash
# Runs every test: lit + FileCheck on .ll inputs, C/C++ programs compiled with
# the plugin at -O0..-O3 and run, the fixed-seed fuzzing slice, and the
# GoogleTest unit tests (through lit). Builds first (via tools/setup.sh), so
# it also works on a fresh checkout. Ends with "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
TAPESTRY_SKIP_EXAMPLE=1 tools/setup.sh || exit 1
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
results="$BUILD_DIR/test/results.json"
python3 "$lit" -sv --output "$results" ${LIT_ARGS:-} \
  "$BUILD_DIR/test" "$BUILD_DIR/test/Unit"
status=$?
python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
good = {"PASS", "XFAIL"}
bad = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
passed = sum(t["code"] in good for t in tests)
failed = sum(t["code"] in bad for t in tests)
skipped = len(tests) - passed - failed
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
