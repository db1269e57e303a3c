#!/usr/bin/env bash
# GPU test of dd-pta's GPU solvers, on the GPU machine:
#
#   test/gpu/pta-verify.sh BIN_DIR INPUT_DIR
#
# BIN_DIR holds dd-pta and pta_gpu_test (built with CUDA; dd-pta links
# LLVM's IR reader statically, so it runs where LLVM is not installed).
# pta_gpu_test checks both variants against the CPU solver on random
# constraint sets; then every .ll and .bc file of INPUT_DIR goes through
# dd-pta --verify with --algo=gpu-atomic and --algo=gpu-free (the same sets
# as --algo=cpu, node for node). Make inputs with bench/pta/make-input.sh.
# Each run is limited to DD_GPU_TEST_TIMEOUT seconds (default 300). Prints
# one line per run and "N passed, N failed"; exit status 1 when any failed.
set -u
bin=${1:?usage: pta-verify.sh BIN_DIR INPUT_DIR}
inputs=${2:?usage: pta-verify.sh BIN_DIR INPUT_DIR}
timeout_s=${DD_GPU_TEST_TIMEOUT:-300}
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if timeout -k 10 "$timeout_s" "$bin/pta_gpu_test" >"$log" 2>&1; then
  echo "PASS pta_gpu_test: $(tail -n 1 "$log")"
  passed=$((passed + 1))
else
  echo "FAIL pta_gpu_test: $(grep -m 3 FAIL "$log" | tr '\n' ' ')$(tail -n 1 "$log")"
  failed=$((failed + 1))
fi
for f in "$inputs"/*.ll "$inputs"/*.bc; do
  [[ -e $f ]] || continue
  for algo in gpu-atomic gpu-free; do
    if timeout -k 10 "$timeout_s" "$bin/dd-pta" --algo=$algo --verify "$f" >"$log" 2>&1 &&
      grep -q '^verify: ok' "$log"; then
      echo "PASS $algo $(basename "$f"): $(grep '^solved' "$log" | sed 's/.*facts/facts/')"
      passed=$((passed + 1))
    else
      echo "FAIL $algo $(basename "$f"): $(tail -n 2 "$log" | tr '\n' ' ')"
      failed=$((failed + 1))
    fi
  done
done
echo "pta-verify: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
