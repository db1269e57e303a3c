#!/usr/bin/env bash
# GPU test of dd-maxflow: push-relabel with node locks as written
# (--algo=locks) and through the delegate pass (--algo=delegate, always
# delegated and adaptive), with --verify (a feasible flow: capacities and
# conservation; no residual path from the source to the sink; its value
# equals Dinic's exactly), on Washington RLG meshes and random networks.
# Run on the GPU machine:
#
#   test/gpu/maxflow-verify.sh BIN_DIR
#
# BIN_DIR holds dd-maxflow and dd-graph. Generated in a scratch folder:
# RLG meshes (dd-graph generate rlg) from 8 x 8 to 512 x 512, a long thin
# one (many levels) and a wide short one (a crowded source and sink); random
# networks (awk) with parallel and antiparallel arcs, self loops, zero
# capacities, capacities up to 2^31 - 1 (flow values above 2^31), a sink no
# arc reaches, and the CLRS example (the flow is 23).
#
# Maximum flows are not unique, so the GPU's per-arc flows are checked by
# --verify, not compared; the value must equal --algo=cpu's (Dinic's), and
# the --out file's "s" line the result line's value.
#
# Variants per network: locks; delegate with DD_DELEGATE_POLICY=delegate;
# the same with one server block (DD_DELEGATE_SERVERS=1, small networks
# only); delegate with the adaptive policy (--runs=3: the launcher probes
# both ways, DD_DELEGATE_VERBOSE=1 must show the original probed). Each run
# is limited to DD_GPU_TEST_TIMEOUT seconds (default 180: a hang must not
# eat the lease). dd-maxflow-turns too, when BIN_DIR has it (two meshes,
# three turns). Prints one line per run and "N passed, N failed"; exit
# status 1 when any failed.
set -u
bin=${1:?usage: maxflow-verify.sh BIN_DIR}
timeout_s=${DD_GPU_TEST_TIMEOUT:-180}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

fail() {
  echo "FAIL $1"
  failed=$((failed + 1))
}

# rlg NAME ROWS COLS SEED: dd-graph generate rlg into $work/NAME.max
rlg() {
  if ! "$bin/dd-graph" generate rlg --rows="$2" --cols="$3" --seed="$4" -o "$work/$1.max" \
       >"$work/gen.err" 2>&1; then
    fail "generate $1: $(tail -n 1 "$work/gen.err")"
    return 1
  fi
  echo "$work/$1.max"
}

# random NAME N M MAXCAP SEED: M random arcs over N vertices (1 the source,
# N the sink), capacities uniform in [0, MAXCAP].
random() {
  awk -v n="$2" -v m="$3" -v c="$4" -v seed="$5" 'BEGIN {
    srand(seed); printf "c random network\np max %d %d\nn 1 s\nn %d t\n", n, m, n
    for (i = 0; i < m; i++)
      printf "a %d %d %d\n", 1 + int(rand() * n), 1 + int(rand() * n), int(rand() * (c + 1)) }' \
    >"$work/$1.max"
  echo "$work/$1.max"
}

# check NETWORK LABEL SMALL: the CPU value, then each GPU variant against it.
check() {
  local net=$1 label=$2 small=$3
  if ! timeout -k 10 "$timeout_s" "$bin/dd-maxflow" --algo=cpu "$net" >"$work/cpu.out" \
       2>"$work/cpu.err"; then
    fail "$label --algo=cpu: $(tail -n 1 "$work/cpu.err")"
    return
  fi
  local want
  want=$(tail -n 1 "$work/cpu.out" | cut -d' ' -f1-2)
  variant "$net" "$label" "$want" locks "" "" --runs=2
  variant "$net" "$label" "$want" delegate delegate "" --runs=2
  if [[ $small == small ]]; then
    DD_DELEGATE_SERVERS=1 variant "$net" "$label" "$want" delegate delegate ""
  fi
  DD_DELEGATE_VERBOSE=1 variant "$net" "$label" "$want" delegate adaptive "probe: original took" \
    --runs=3
  echo "     $label: cpu $want"
}

# variant NETWORK LABEL WANT ALGO POLICY EXPECT_STDERR [options...]
variant() {
  local net=$1 label=$2 want=$3 algo=$4 policy=$5 expect=$6
  shift 6
  local name="$label --algo=$algo${policy:+ DD_DELEGATE_POLICY=$policy}"
  name+="${DD_DELEGATE_SERVERS:+ DD_DELEGATE_SERVERS=$DD_DELEGATE_SERVERS}"
  rm -f "$work/gpu.txt"
  if [[ -n $policy ]]; then
    DD_DELEGATE_POLICY=$policy timeout -k 10 "$timeout_s" "$bin/dd-maxflow" --algo=$algo \
      --verify "$@" --out="$work/gpu.txt" "$net" >"$work/gpu.out" 2>"$work/gpu.err"
  else
    timeout -k 10 "$timeout_s" "$bin/dd-maxflow" --algo=$algo --verify "$@" \
      --out="$work/gpu.txt" "$net" >"$work/gpu.out" 2>"$work/gpu.err"
  fi
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    [[ $rc -eq 124 || $rc -eq 137 ]] && echo "  (timed out after ${timeout_s}s)"
    fail "$name: exit $rc: $(grep -v '^dd: ' "$work/gpu.err" | tail -n 1)"
    return
  fi
  if ! grep -q '^dd-maxflow: verified:' "$work/gpu.err"; then
    fail "$name: no verification line"
    return
  fi
  local got
  got=$(tail -n 1 "$work/gpu.out" | cut -d' ' -f1-2)
  if [[ $got != "$want" ]]; then
    fail "$name: '$got', --algo=cpu '$want'"
    return
  fi
  if [[ "$(head -n 1 "$work/gpu.txt")" != "s ${got#flow }" ]]; then
    fail "$name: the --out file says '$(head -n 1 "$work/gpu.txt")'"
    return
  fi
  if [[ -n $expect ]] && ! grep -q -- "$expect" "$work/gpu.err"; then
    fail "$name: the launcher did not report '$expect' ($(grep '^dd: ' "$work/gpu.err" | tail -n 1))"
    return
  fi
  local stats
  stats=$(sed -n 's/^dd-maxflow: algo=.* \(rounds=[0-9]*\) \(global_relabels=[0-9]*\) \(launches=[0-9]*\).*/\1 \2 \3/p' \
    "$work/gpu.err")
  echo "PASS $name ($(tail -n 1 "$work/gpu.out"), $stats)"
  passed=$((passed + 1))
}

printf 'c CLRS 26.1\np max 6 9\nn 1 s\nn 6 t\na 1 2 16\na 1 3 13\na 3 2 4\na 2 4 12\na 4 3 9\na 3 5 14\na 5 4 7\na 4 6 20\na 5 6 4\n' \
  >"$work/clrs.max"
check "$work/clrs.max" clrs small
# The sink has no arc in: the flow is 0.
printf 'p max 4 3\nn 1 s\nn 4 t\na 1 2 5\na 2 3 5\na 4 1 9\n' >"$work/cut.max"
check "$work/cut.max" no-path small

for size in 8 32 64 128 256 512; do
  if n=$(rlg "rlg$size" "$size" "$size" "$size"); then
    [[ $size -le 64 ]] && small=small || small=large
    check "$n" "rlg ${size}x$size" "$small"
  fi
done
if n=$(rlg long 8 1024 7); then check "$n" "rlg 8x1024" large; fi
if n=$(rlg wide 1024 8 8); then check "$n" "rlg 1024x8" large; fi

check "$(random rand-small 50 400 100 1)" "random 50/400" small
check "$(random rand-mid 5000 40000 10000 2)" "random 5000/40000" small
check "$(random rand-big 100000 1000000 2147483647 3)" "random 1e5/1e6 cap 2^31-1" large
check "$(random rand-dense 2000 200000 7 4)" "random 2000/2e5 cap 7" large

# dd-maxflow-turns (bench/apps), when BIN_DIR has it: both ways in turns in
# one process, every run verified by the tool; the value must be Dinic's and
# the summary complete.
turns() {
  local net=$1 label=$2 want=$3
  if ! timeout -k 10 "$timeout_s" "$bin/dd-maxflow-turns" --turns=3 "$net" >"$work/turns.out" \
       2>"$work/turns.err"; then
    fail "$label dd-maxflow-turns: $(grep -v '^dd: ' "$work/turns.err" | tail -n 1)"
    return
  fi
  local value
  value=$(sed -n 's/^flow \([0-9]*\), every run verified.*/\1/p' "$work/turns.out")
  if [[ "flow $value" != "$want" ]] || [[ $(grep -c '^ *[123] ' "$work/turns.out") -ne 3 ]] ||
     ! grep -q '^written/rewrite program [0-9.]* gpu [0-9.]* round [0-9.]*$' "$work/turns.out"; then
    fail "$label dd-maxflow-turns: '$(tail -n 1 "$work/turns.out")', value '$value', --algo=cpu '$want'"
    return
  fi
  echo "PASS $label dd-maxflow-turns ($(tail -n 1 "$work/turns.out"))"
  passed=$((passed + 1))
}
if [[ -x $bin/dd-maxflow-turns ]]; then
  for size in 32 128; do
    n=$work/rlg$size.max
    [[ -s $n ]] || continue
    want=$(timeout -k 10 "$timeout_s" "$bin/dd-maxflow" --algo=cpu "$n" 2>/dev/null | tail -n 1 |
      cut -d' ' -f1-2)
    turns "$n" "rlg ${size}x$size" "$want"
  done
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
