#!/usr/bin/env bash
# Runs GPU test binaries (built elsewhere: test/gpu/CMakeLists.txt or
# bench/atomics/build.sh; this script builds nothing), on the GPU machine:
#
#   test/gpu/run.sh BINARY [BINARY...]
#
# Each binary runs under a time limit (DD_GPU_TEST_TIMEOUT seconds, default
# 300: a warp-synchronization bug shows as a hang, and a hang must not eat
# the lease). Its whole output goes to $OUT/<name>.log when OUT is set (else
# to ./<name>.log); the failing lines and its summary line are printed here.
# Exit status: 0 when every binary exited 0, else 1.
set -u
timeout_s=${DD_GPU_TEST_TIMEOUT:-300}
logdir=${OUT:-.}
status=0
if [[ $# -eq 0 ]]; then
  echo "usage: $0 BINARY [BINARY...]" >&2
  exit 2
fi
for bin in "$@"; do
  name=$(basename "$bin")
  log="$logdir/$name.log"
  echo "== $name"
  start=$(date +%s)
  timeout -k 10 "$timeout_s" "$bin" >"$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  grep -E '^FAIL' "$log" | head -20
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    echo "$name: TIMED OUT after ${timeout_s}s (last line: $(tail -n 1 "$log"))"
  fi
  echo "$name: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true) (exit $rc, ${took}s)"
  [[ $rc -eq 0 ]] || status=1
done
exit $status
