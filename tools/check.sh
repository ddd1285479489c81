#!/usr/bin/env bash
# Runs every test: lit + FileCheck on .ll inputs, C/C++ programs compiled with
# the plugin at -O0..-O3 and run, the fixed-seed fuzzing slice, and the
# GoogleTest unit tests (through lit). Builds first (via tools/setup.sh), so
# it also works on a fresh checkout. Ends with "N passed, M failed, K
# skipped"; known bugs (XFAIL) are listed on their own, before that line.
#
#   tools/check.sh           every test (what CI runs)
#   tools/check.sh --quick   the slice listed in test/quick-tier.txt, for
#                            everyday work (a few minutes)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
filter=()
if [[ "${1:-}" == "--quick" ]]; then
  filter=(--filter "($(grep -v -e '^#' -e '^$' test/quick-tier.txt |
    paste -sd'|'))")
elif [[ $# -gt 0 ]]; then
  echo "usage: tools/check.sh [--quick]" >&2
  exit 2
fi
TAPESTRY_SKIP_EXAMPLE=1 tools/setup.sh || exit 1
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
results="$BUILD_DIR/test/results.json"
python3 "$lit" -sv --output "$results" ${LIT_ARGS:-} "${filter[@]}" \
  "$BUILD_DIR/test" "$BUILD_DIR/test/Unit"
status=$?
python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
bad = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
passed = sum(t["code"] == "PASS" for t in tests)
failed = sum(t["code"] in bad for t in tests)
known = [t["name"] for t in tests if t["code"] == "XFAIL"]
# lit leaves tests a --filter excludes out of the results.
skipped = len(tests) - passed - failed - len(known)
# Known bugs (XFAIL, each with its reason in the test) are neither passed
# nor failed: listed on their own line.
if known:
    print(f"{len(known)} expected failure(s), known bugs marked XFAIL:")
    for name in known:
        print(f"  {name}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
# A failure by this count (an unexpected pass included) fails the run even
# where lit's own exit status does not say so.
sys.exit(1 if failed else 0)
PY
counted=$?
[[ $status -ne 0 ]] && exit $status
exit $counted
