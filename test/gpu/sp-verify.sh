#!/usr/bin/env bash
# GPU test of dd-sp: survey propagation's rounds on the GPU with atomic
# products (--algo=atomic) and by gathering (--algo=gather, atomic-free),
# each with --verify
# (the first convergence -- before any decimation -- converges as the CPU
# reference's does, every survey and bias within --tolerance of it; every
# clause decimation or unit propagation decided holds its literal; a "sat"
# assignment satisfies every clause), on generated formulas. Run on the GPU
# machine:
#
#   test/gpu/sp-verify.sh BIN_DIR
#
# BIN_DIR holds dd-sp and dd-graph. Formulas, generated in a scratch folder:
# hand-made ones (one sign per variable, unit clauses, a contradiction, an
# oscillating unsatisfiable one), and uniform random 3-SAT (dd-graph
# generate 3sat) at ratios 3.0 and 4.2 from 100 variables to 250000
# (1.05 million clauses), several seeds.
#
# On formulas marked small, the CPU's whole run is made too and each GPU
# run's result is printed beside it: --algo=gather must give the CPU's
# result exactly (its arithmetic is the CPU's, bit for bit, and so is every
# decision after it); atomic may differ once a decimation
# ranks two nearly equal biases differently, which is reported, not failed.
# On small formulas each algo also runs with --round-loop=device (every
# round in one cooperative launch). The "s" line of each --out file must
# match the result line. Each run is
# limited to DD_GPU_TEST_TIMEOUT seconds (default 300). Prints one line per
# run and "N passed, N failed"; exit status 1 when any failed.
#
# DD_SP_SIZES picks the formulas: "small large" (default), "small" (the
# hand-made ones up to 20000 variables) or "large" (100000 and 250000
# variables). Large formulas run WalkSAT with --max-flips=1000000: its
# default (100000 + 1000 per variable, 100 million flips at 100000
# variables) takes minutes on the host and checks nothing the verification
# needs; an assignment it does find is still checked against every clause.
set -u
bin=${1:?usage: sp-verify.sh BIN_DIR}
timeout_s=${DD_GPU_TEST_TIMEOUT:-300}
sizes=${DD_SP_SIZES:-small large}
case " $sizes " in
*" small "* | *" large "*) ;;
*)
  echo "sp-verify.sh: DD_SP_SIZES must name small, large or both, not '$sizes'" >&2
  exit 2
  ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

fail() {
  echo "FAIL $1"
  failed=$((failed + 1))
}

# generate NAME VARS RATIO SEED: dd-graph generate 3sat into $work/NAME.cnf
generate() {
  if ! "$bin/dd-graph" generate 3sat --vars="$2" --ratio="$3" --seed="$4" -o "$work/$1.cnf" \
       >"$work/gen.err" 2>&1; then
    fail "generate $1: $(tail -n 1 "$work/gen.err")"
    return 1
  fi
  echo "$work/$1.cnf"
}

# result FILE: the result line's words before the timings.
result() {
  tail -n 1 "$1" | sed 's/ sp_ms.*//'
}

# variant FORMULA LABEL ALGO CPU_RESULT [options...]
variant() {
  local formula=$1 label=$2 algo=$3 want=$4
  shift 4
  local name="$label --algo=$algo${*:+ $*}"
  rm -f "$work/gpu.sol"
  timeout -k 10 "$timeout_s" "$bin/dd-sp" --algo="$algo" --verify --runs=2 "$@" \
    --out="$work/gpu.sol" "$formula" >"$work/gpu.out" 2>"$work/gpu.err"
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    [[ $rc -eq 124 || $rc -eq 137 ]] && echo "  (timed out after ${timeout_s}s)"
    fail "$name: exit $rc: $(tail -n 1 "$work/gpu.err")"
    return
  fi
  if ! grep -q '^dd-sp: verified:' "$work/gpu.err"; then
    fail "$name: no verification line"
    return
  fi
  local got s
  got=$(result "$work/gpu.out")
  s=$(head -n 1 "$work/gpu.sol")
  if [[ $got == sat* && $s != "s SATISFIABLE" ]] || [[ $got != sat* && $s != "s UNKNOWN" ]]; then
    fail "$name: --out says '$s' for '$got'"
    return
  fi
  local note=""
  if [[ -n $want ]]; then
    if [[ $got == "$want" ]]; then
      note=", as cpu"
    elif [[ $algo == gather ]]; then
      fail "$name: '$got', the CPU's is '$want'"
      return
    else
      note=", cpu: $want"
    fi
  fi
  local stats verified
  stats=$(sed -n 's/^dd-sp: algo=.* \(decimations=[0-9]*\).* \(first_rounds=[0-9]*\) \(inexact_products=[0-9]*\) \(launches=[0-9]*\)/\1 \2 \3 \4/p' \
    "$work/gpu.err")
  verified=$(sed -n 's/^dd-sp: verified: first convergence as the CPU.s (\(.*\)).*/\1/p' \
    "$work/gpu.err" | sed 's/).*//')
  echo "PASS $name ($(tail -n 1 "$work/gpu.out")$note; $stats; ${verified:-no rounds})"
  passed=$((passed + 1))
}

# check FORMULA LABEL small|large [options...]
check() {
  local formula=$1 label=$2 size=$3
  shift 3
  local want=""
  if [[ $size == small ]]; then
    if ! timeout -k 10 "$timeout_s" "$bin/dd-sp" --algo=cpu "$@" "$formula" >"$work/cpu.out" \
         2>"$work/cpu.err"; then
      fail "$label --algo=cpu: $(tail -n 1 "$work/cpu.err")"
      return
    fi
    want=$(result "$work/cpu.out")
  fi
  for algo in atomic gather; do
    variant "$formula" "$label" "$algo" "$want" "$@"
    # The rounds in one cooperative launch: the same rounds, so gather must
    # still give the CPU's result exactly.
    [[ $size == small ]] && variant "$formula" "$label" "$algo" "$want" "$@" --round-loop=device
  done
  [[ -n $want ]] && echo "     $label: cpu $want"
}

if [[ " $sizes " == *" small "* ]]; then
  printf 'p cnf 4 3\n1 2 3 0\n1 4 0\n2 -3 0\n' >"$work/one-sign.cnf"
  printf 'p cnf 3 3\n1 0\n-1 2 0\n-2 3 0\n' >"$work/units.cnf"
  printf 'p cnf 2 3\n1 0\n-1 2 0\n-2 0\n' >"$work/contradiction.cnf"
  printf 'p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n' >"$work/oscillating.cnf"
  check "$work/one-sign.cnf" one-sign small
  check "$work/units.cnf" units small
  check "$work/contradiction.cnf" contradiction small
  check "$work/oscillating.cnf" oscillating small --max-rounds=100

  for seed in 1 2 3; do
    if f=$(generate "v100-r3-s$seed" 100 3.0 "$seed"); then check "$f" "100 vars ratio 3.0 seed $seed" small; fi
    if f=$(generate "v100-r42-s$seed" 100 4.2 "$seed"); then check "$f" "100 vars ratio 4.2 seed $seed" small; fi
  done
  for seed in 1 2; do
    if f=$(generate "v2k-r3-s$seed" 2000 3.0 "$seed"); then check "$f" "2000 vars ratio 3.0 seed $seed" small; fi
    if f=$(generate "v2k-r42-s$seed" 2000 4.2 "$seed"); then check "$f" "2000 vars ratio 4.2 seed $seed" small; fi
  done
  if f=$(generate v20k-r42 20000 4.2 4); then
    check "$f" "20000 vars ratio 4.2" small
    check "$f" "20000 vars ratio 4.2 damped" small --damping=0.5
  fi
fi
if [[ " $sizes " == *" large "* ]]; then
  if f=$(generate v100k-r3 100000 3.0 5); then check "$f" "100000 vars ratio 3.0" large --max-flips=1000000; fi
  if f=$(generate v100k-r42 100000 4.2 6); then check "$f" "100000 vars ratio 4.2" large --max-flips=1000000; fi
  if f=$(generate v250k-r42 250000 4.2 7); then check "$f" "250000 vars ratio 4.2 (1.05M clauses)" large --max-flips=1000000; fi
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
