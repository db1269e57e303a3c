#!/usr/bin/env bash
# Runs the delegate benchmark and tests on the GPU machine (one call), with a
# time limit per step so that a hang cannot eat the others' time; logs under
# $OUT (default .):
#
#   bench/delegate/run.sh [quick|full|repeat|examples]
#
# quick: the channel stress test's 16-server configurations, delegate_test,
#        delegate_bench --quick, and a server-count sweep at collision
#        factors 256 and 128K.
# full:  the whole channel stress test, delegate_test, the whole benchmark
#        (the table of docs/PERF.md), and the delegate alone with 32 and 64
#        servers at collision factors 256 and 128K; the table is printed last.
# examples: the delegate pass's output against the program as written:
#        examples/hashtable and examples/bank, original and _dd, at collision
#        factors 32 ... 128K (the table of docs/PERF.md, "Delegate pass").
#        Also the last step of full.
# repeat: the whole benchmark again (run-to-run spread) and delegate_test's
#        collision-factor-1K cases under compute-sanitizer memcheck.
# Binaries come from bench/delegate/build.sh in DD_GPU_DIR (default
# .gpu-delegate, carried to the machine).
set -u
cd "$(dirname "$0")/../.."
dir=${DD_GPU_DIR:-.gpu-delegate}
out=${OUT:-.}
mode=${1:-full}
query=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw
nvidia-smi --query-gpu=$query --format=csv >"$out/gpu.txt" 2>&1 || true
step() { # NAME LIMIT COMMAND...
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout -k 5 "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "== $name: exit $rc ($((SECONDS - t0)) s) $(grep -E 'passed, [0-9]+ failed' "$out/$name.log" | tail -1)"
  grep -E '^FAIL' "$out/$name.log" | head -5
}
# The rewritten examples against their originals, one row per collision
# factor. HT: 2^20 inserts into a pool of C buckets (hashtable --cf C). ATM:
# 2^16 transfers between two distinct accounts drawn uniformly from C
# (bank --accounts C), the contention of delegate_bench's ATM, whose pool
# is C accounts of 2^20. Each binary times its launch statement (--time R:
# CUDA events, a warm-up, median of R) and checks itself (--verify 1); the
# check column also needs the digests equal. The rewritten program runs
# twice: always delegating (DD_DELEGATE_POLICY=delegate), and as it ships
# (adaptive: its first launch, the warm-up, probes the delegated pair, the
# second the kernel as written, then the faster runs); "probe max" is the
# slowest timed launch of the adaptive run (the probe of the slower way),
# "runs" the way it settled on.
examples_table() {
  local runs=${DD_EXAMPLE_RUNS:-7} cfs=${DD_EXAMPLE_CFS:-32 256 1024 32768 131072}
  local rows="$out/examples_rows.txt"
  : >"$rows"
  for ex in hashtable bank; do
    for cf in $cfs; do
      local args
      if [ $ex = hashtable ]; then args="--keys 1048576 --cf $cf"; else args="--transfers 65536 --accounts $cf"; fi
      for v in orig delegate adaptive; do
        local bin=$dir/$ex policy=
        [ $v = orig ] || { bin=$dir/${ex}_dd; policy=$v; }
        DD_DELEGATE_POLICY=$policy DD_DELEGATE_VERBOSE=1 timeout -k 5 120 "$bin" $args --verify 1 --time "$runs" \
          >"$out/ex_${ex}_${v}_$cf.log" 2>&1
        echo "rc=$?" >>"$out/ex_${ex}_${v}_$cf.log"
      done
      echo "$ex $cf $out/ex_${ex}_orig_$cf.log $out/ex_${ex}_delegate_$cf.log $out/ex_${ex}_adaptive_$cf.log" >>"$rows"
    done
  done
  echo "| bench | collision factor | ops | original ms | delegated ms | adaptive ms | probe max ms | runs | delegated speedup | adaptive speedup | check |"
  echo "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|"
  while read -r ex cf orig del ada; do
    awk -v ex="$ex" -v cf="$cf" '
      function field(line, key,   m) { if (match(line, key "=[0-9.]+")) return substr(line, RSTART + length(key) + 1, RLENGTH - length(key) - 1); return "" }
      function ratio(a, b) { return (a != "" && b > 0) ? sprintf("%.2fx", a / b) : "-" }
      FNR == 1 { f++ }
      /^time_ms=/ { t[f] = field($0, "time_ms"); mx[f] = field($0, "max_ms") }
      /^digest / { d[f] = $2 }
      /^verify: ok/ { ok[f] = 1 }
      /^rc=/ { rc[f] = substr($0, 4) }
      /^keys |^transfers / { ops = $2; sub(",", "", ops) }
      /runs the (delegated|original)/ { w = $0; sub(/.*runs the /, "", w); sub(/[;, ].*/, "", w); way = w }
      END {
        name = ex == "hashtable" ? "HT" : "ATM"
        c = cf >= 1024 ? (cf / 1024) "K" : cf
        check = "ok"
        for (i = 1; i <= 3; i++)
          if (rc[i] != "0" || !ok[i] || d[i] == "" || d[i] != d[1]) check = "FAIL"
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, c, ops,
          t[1] == "" ? "-" : t[1], t[2] == "" ? "-" : t[2], t[3] == "" ? "-" : t[3],
          mx[3] == "" ? "-" : mx[3], way == "" ? "-" : way, ratio(t[1], t[2]), ratio(t[1], t[3]), check
      }' "$orig" "$del" "$ada"
  done <"$rows" | tee "$out/examples_table.md"
  awk -F'|' '$10 ~ /x/ { s = $10; sub(/x/, "", s); g += log(s + 0); n++ }
    $11 ~ /x/ { s = $11; sub(/x/, "", s); h += log(s + 0); m++ }
    END { if (n) printf "geomean speedup over %d rows: delegated %.2fx, adaptive %.2fx\n", n, exp(g / n), exp(h / m) }' \
    "$out/examples_table.md"
}

if [ "$mode" = examples ]; then
  nvidia-smi --query-gpu=$query --format=csv,noheader >>"$out/gpu.txt" 2>&1 || true
  cat "$out/gpu.txt"
  examples_table
elif [ "$mode" = repeat ]; then
  step delegate_bench_repeat 240 "$dir/delegate_bench" ${DD_BENCH_ARGS:-}
  for f in single/cf1024/S16/L4096 nested/cf1024/S16/L4096; do
    step "memcheck_${f//\//_}" 60 compute-sanitizer --tool memcheck "$dir/delegate_test" --filter "$f" --timeout 20
    tail -3 "$out/memcheck_${f//\//_}.log"
  done
  grep -vE "^(ok|FAIL) " "$out/delegate_bench_repeat.log"
elif [ "$mode" = quick ]; then
  step channel_stress_s16 60 "$dir/channel_stress" --filter C8192/S16 --budget 40
  step delegate_test 150 "$dir/delegate_test" --timeout 30
  step bench_quick 60 "$dir/delegate_bench" --quick --timeout 5
  step bench_s16 60 "$dir/delegate_bench" --cf 256,131072 --reps 3 --skip-fit --timeout 8
  for s in 32 64; do
    step bench_s$s 30 "$dir/delegate_bench" --cf 256,131072 --reps 3 --skip-fit --skip-original --servers $s --timeout 8
  done
  for f in bench_quick bench_s16 bench_s32 bench_s64; do
    echo "---- $f"; grep -E "^(ok|FAIL)|^split|geomean" "$out/$f.log"
  done
  grep -E "^(PASS|FAIL)" "$out/delegate_test.log"
else
  step channel_stress 175 "$dir/channel_stress" --budget 140
  step delegate_test 120 "$dir/delegate_test"
  step delegate_bench 240 "$dir/delegate_bench" ${DD_BENCH_ARGS:-}
  for s in 32 64; do # more servers: the delegate alone, same sizes
    step sweep_s$s 40 "$dir/delegate_bench" --cf 256,131072 --skip-original --skip-fit --servers $s
  done
  nvidia-smi --query-gpu=$query --format=csv,noheader >>"$out/gpu.txt" 2>&1 || true
  cat "$out/gpu.txt"
  grep -E "^(PASS|FAIL)" "$out/delegate_test.log"
  for f in sweep_s32 sweep_s64; do
    echo "---- $f"; grep -E "^(ok|FAIL)" "$out/$f.log"
  done
  grep -vE "^(ok|FAIL) " "$out/delegate_bench.log"
  echo "---- rewritten examples vs originals"
  examples_table
fi
