#!/usr/bin/env bash
# GPU test of dd-sgd (docs/sgd.md): the edge-lock SGD kernel as written
# (--algo=locks) and as the delegate pass rewrote it (--algo=delegate, with
# DD_DELEGATE_POLICY=delegate, which always delegates, and adaptive, which
# probes both ways and must say so), each with --verify: every rating
# updated exactly E times (per-rating counters: no update lost or run twice)
# and the training RMSE within 1% of the sequential CPU SGD. Inputs are
# generated with dd-graph generate ratings, both shapes, from a tiny dense set
# where every thread fights for the same few locks up to 10M ratings
# (MovieLens-10M at full size; Netflix scaled to 10M ratings at its density).
# Run on the GPU machine:
#
#   test/gpu/sgd-verify.sh BIN_DIR [WORK_DIR]
#
# BIN_DIR holds dd-sgd and dd-graph; the rating files go to WORK_DIR
# (default: a temporary folder, removed at the end). SGD_VERIFY_SIZES="tiny
# small" (say) runs only those inputs: tiny, small, medium, large. Each run is
# limited to DD_GPU_TEST_TIMEOUT seconds (default 300: a deadlock shows as a
# hang, and a hang must not eat the lease). Prints one line per run and
# "N passed, N failed"; exit status 1 when any failed.
set -u
bin=${1:?usage: sgd-verify.sh BIN_DIR [WORK_DIR]}
timeout_s=${DD_GPU_TEST_TIMEOUT:-300}
sizes=${SGD_VERIFY_SIZES:-"tiny small medium large"}
if [[ $# -ge 2 ]]; then
  data=$2
  mkdir -p "$data"
else
  data=$(mktemp -d)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"; [[ $# -ge 2 ]] || rm -rf "$data"' EXIT
passed=0
failed=0

# name shape users items ratings [dd-sgd options...]
inputs_tiny=(
  "dense-ml movielens 40 25 1000 --k=8"     # every thread fights for 40 + 25 locks
  "dense-nf netflix 64 16 1024 --k=1"
)
inputs_small=(
  "nf-100k netflix 4800 177 100000 --k=33"
  "ml-100k movielens 7200 1070 100000"
)
inputs_medium=(
  "nf-1m netflix 48000 1770 1000000"
  "ml-1m movielens 72000 10700 1000000 --k=32 --epochs=4"
)
inputs_large=(
  "nf-10m netflix 152000 5600 10000000 --epochs=5"
  "ml-10m movielens 72000 10700 10000000 --epochs=5"
)

# One run: label, environment (VAR=value ...), then dd-sgd's arguments.
# EXPECT_STDERR, when set, must occur in its standard error.
run_case() {
  local label=$1 env_vars=$2
  shift 2
  env $env_vars timeout -k 10 "$timeout_s" "$bin/dd-sgd" --verify "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  local verified ok=1
  verified=$(sed -n 's/^dd-sgd: verified: //p' "$work/err")
  [[ $rc -eq 0 && -n $verified ]] || ok=0
  if [[ -n ${EXPECT_STDERR:-} ]] && ! grep -qF -- "$EXPECT_STDERR" "$work/err"; then
    ok=0
  fi
  if [[ $ok -eq 1 ]]; then
    echo "PASS $label: $(tail -n 1 "$work/out"); $verified"
    passed=$((passed + 1))
  else
    [[ $rc -eq 124 || $rc -eq 137 ]] && echo "  (timed out after ${timeout_s}s)"
    if [[ -n ${EXPECT_STDERR:-} ]] && ! grep -qF -- "$EXPECT_STDERR" "$work/err"; then
      echo "  (standard error lacks '$EXPECT_STDERR')"
    fi
    echo "FAIL $label: exit $rc: $(grep -v '^dd: ' "$work/err" | tail -n 1)"
    failed=$((failed + 1))
  fi
}

for size in $sizes; do
  declare -n list="inputs_$size"
  for spec in "${list[@]}"; do
    read -r name shape users items ratings opts <<<"$spec"
    file="$data/$name.mtx"
    if [[ ! -s $file ]] &&
       ! "$bin/dd-graph" generate ratings --users="$users" --items="$items" \
           --ratings="$ratings" --shape="$shape" --seed=1 -o "$file" 2>"$work/err"; then
      echo "FAIL $name: cannot generate it: $(tail -n 1 "$work/err")"
      failed=$((failed + 1))
      continue
    fi
    # shellcheck disable=SC2086  # opts: several options
    run_case "$name locks $opts" "" --algo=locks $opts "$file"
    run_case "$name delegate (policy delegate) $opts" "DD_DELEGATE_POLICY=delegate" \
      --algo=delegate $opts "$file"
    # Adaptive: the first launch runs delegated, the second as written, each
    # timed; the verbose line of the second probe names the original.
    EXPECT_STDERR="probe: original took" run_case "$name delegate (policy adaptive) $opts" \
      "DD_DELEGATE_POLICY=adaptive DD_DELEGATE_VERBOSE=1" --algo=delegate $opts "$file"
  done
  unset -n list
done
# Timing runs (median of 3 after a warm-up) still verify the last run.
if [[ " $sizes " == *" small "* ]]; then
  run_case "nf-100k locks --runs=3" "" --algo=locks --runs=3 "$data/nf-100k.mtx"
  run_case "nf-100k delegate --runs=3" "DD_DELEGATE_POLICY=delegate" --algo=delegate --runs=3 \
    "$data/nf-100k.mtx"
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
