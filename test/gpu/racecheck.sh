#!/usr/bin/env bash
# compute-sanitizer racecheck over the delegated programs (the server and
# client kernels of <dd/delegate.cuh> and <dd/channel.cuh>). Every hazard
# racecheck reports must be one of two kinds that are not data races under
# the CUDA memory model (docs/delegate-runtime.md, "racecheck"):
#  - both accesses are cuda::atomic_ref operations (racecheck reports an
#    atomic load against an atomic store in shared memory, e.g. a lock
#    word's test load against its release store);
#  - both accesses are on source lines of the runtime that carry a
#    `racecheck: ordered` comment: plain accesses whose order comes from an
#    atomic hand-off between warps that racecheck cannot follow (the comment
#    says which).
# Any other hazard fails the case and is printed with both sites.
#
#   test/gpu/racecheck.sh BIN_DIR RUNTIME_INCLUDE_DIR
# BIN_DIR holds hashtable_dd built with -lineinfo (gpu-proof.sh pack does
# that; bank_dd is packed too, but its nested server spins long enough under
# racecheck that a case did not finish in 400 s on the H100); RUNTIME_INCLUDE_DIR is runtime/include (to read the
# comments). Ends with "N passed, N failed".
set -u
bin=${1:?usage: racecheck.sh BIN_DIR RUNTIME_INCLUDE_DIR}
inc=${2:?usage: racecheck.sh BIN_DIR RUNTIME_INCLUDE_DIR}
cs=${COMPUTE_SANITIZER:-${CUDA_PATH:-/usr/local/cuda}/bin/compute-sanitizer}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
# The rewritten launchers must delegate (not run the kernel as written).
export DD_DELEGATE_POLICY=delegate

# marked FILE:LINE: whether that runtime line carries the comment.
marked() {
  local file=${1%:*} line=${1##*:}
  local path="$inc/dd/$(basename "$file")"
  [ -f "$path" ] && sed -n "${line}p" "$path" | grep -q 'racecheck: ordered'
}

check() { # NAME ARGS...
  local name=$1
  shift
  local label="$name $*" log="$work/log"
  # Spinning on a lock word is slow under racecheck (every load is
  # checked): the cases keep contention moderate.
  timeout 400 "$cs" --tool racecheck --racecheck-report hazard --print-limit 10000000 \
    "$bin/$name" "$@" --verify 1 >"$log" 2>&1
  local status=$?
  if [ $status -ne 0 ]; then
    echo "FAIL $label: exited with $status ($(tail -1 "$log"))"
    failed=$((failed + 1))
    return
  fi
  if ! grep -q "verify: ok" "$log"; then
    echo "FAIL $label: the program's own check did not pass"
    failed=$((failed + 1))
    return
  fi
  local summary
  summary=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard' "$log" | grep -o '[0-9]*')
  # Sites (file:line) of every access racecheck names.
  local sites="$work/sites" ok="$work/ok"
  # A site is "ATOMIC" when the access is a cuda::atomic_ref operation
  # (libcu++'s __cuda_atomic_* functions), else its file:line.
  awk '/Thread \(/ { s = $0; sub(/.* in /, "", s); print s }' "$log" | sort -u >"$sites"
  echo ATOMIC >"$ok"
  while read -r site; do
    marked "$site" && echo "$site" >>"$ok"
  done <"$sites"
  # Hazards (two sites each) with a site that is not marked.
  local bad
  bad=$(awk -v okfile="$ok" '
    BEGIN { while ((getline l < okfile) > 0) ok[l] = 1 }
    /hazard detected/ { n = 0; next }
    /Thread \(/ { s = $0; sub(/.* in /, "", s); if ($0 ~ /__cuda_atomic_/) s = "ATOMIC"; site[n++] = s
      if (n == 2) { if (!(site[0] in ok) || !(site[1] in ok)) { c[site[0] " <-> " site[1]]++; t++ } } }
    END { for (k in c) printf "  %d x %s\n", c[k], k; exit t > 0 }' "$log")
  if [ $? -ne 0 ]; then
    echo "FAIL $label: hazards that are neither atomic pairs nor ordered hand-offs (of ${summary:-?}):"
    echo "$bad" | sort -rn | head -20
    failed=$((failed + 1))
    return
  fi
  echo "ok   $label: ${summary:-0} hazards, all atomic pairs or ordered hand-offs"
  passed=$((passed + 1))
}

check hashtable_dd --cf 1000 --keys 8192
check hashtable_dd --cf 1000 --keys 65536
check hashtable_dd --cf 16 --keys 16384
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
