#!/usr/bin/env bash
# A pass's lit programs on the GPU: every test/<pass>/*.cu with a main() is
# built twice by scripts/gpu-proof.sh pack, as written (NAME) and as
# decoupler rewrote it (NAME_dd). Each program prints a hash of every result
# it computed (and checks them where it can); this script runs
#
#   written     NAME
#   adaptive    NAME_dd as it ships (the launchers probe and choose)
#   REWRITE     NAME_dd with POLICY_VAR=REWRITE (the rewrite wherever its
#               launch-time checks pass)
#   original    NAME_dd with POLICY_VAR=original
#
# and fails a program whose ways do not all exit 0 with the same output.
#
#   test/gpu/lit-programs-differential.sh BIN_DIR POLICY_VAR REWRITE
#
# e.g. `BIN/split DD_SPLIT_POLICY split`, `BIN/atomics DD_PRIVATIZE_POLICY
# privatize` (dd/launch_choice.h names the policies).
# Prints one line per program and "N passed, M failed"; exit 1 on a failure.
set -u
usage="usage: lit-programs-differential.sh BIN_DIR POLICY_VAR REWRITE"
bin=${1:?$usage}
policy_var=${2:?$usage}
rewrite=${3:?$usage}
timeout_s=${DD_GPU_TEST_TIMEOUT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
shopt -s nullglob
for dd in "$bin"/*_dd; do
  name=$(basename "$dd" _dd)
  written="$bin/$name"
  if [ ! -x "$written" ]; then
    echo "FAIL $name: no written build beside $dd"
    failed=$((failed + 1))
    continue
  fi
  ok=1
  for way in written adaptive "$rewrite" original; do
    case $way in
      written) cmd=("$written") ;;
      adaptive) cmd=("$dd") ;;
      *) cmd=(env "$policy_var=$way" "$dd") ;;
    esac
    timeout -k 5 "$timeout_s" "${cmd[@]}" >"$tmp/$way.out" 2>"$tmp/$way.err"
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "FAIL $name: $way exited $rc: $(cat "$tmp/$way.out" "$tmp/$way.err" | tail -n 2 | tr '\n' ' ')"
      ok=0
    elif [ "$way" != written ] && ! cmp -s "$tmp/written.out" "$tmp/$way.out"; then
      echo "FAIL $name: $way differs from written: $(diff "$tmp/written.out" "$tmp/$way.out" | head -4 | tr '\n' ' ')"
      ok=0
    fi
  done
  if [ $ok -eq 1 ]; then
    echo "PASS $name: $(tr '\n' ' ' <"$tmp/written.out")"
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
if [ $((passed + failed)) -eq 0 ]; then
  echo "no NAME_dd program in $bin"
  failed=1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
