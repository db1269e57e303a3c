#!/usr/bin/env bash
# Runs every test of decoupler: sets up (installs what is missing, builds),
# then runs the lit tests of the tool and the GoogleTest unit tests through
# lit, and prints one summary line `decoupler tests: N passed, N failed, ...`.
# Extra arguments go to lit (e.g. --filter analysis).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DECOUPLER_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"

lit=/usr/lib/llvm-22/bin/lit
results="$build/test/results.json"
rm -f "$results"
status=0
"$lit" -sv --time-tests --output "$results" "$@" "$build/test" "$build/test/unit" || status=$?

if [ -f "$results" ]; then
  python3 - "$results" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
count = lambda *codes: sum(t["code"] in codes for t in tests)
passed = count("PASS", "XFAIL")
failed = count("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT")
skipped = count("UNSUPPORTED", "SKIPPED")
print(f"decoupler tests: {passed} passed, {failed} failed, {skipped} skipped")
PY
fi
exit "$status"
