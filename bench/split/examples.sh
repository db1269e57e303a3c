#!/usr/bin/env bash
# The split pass's output against the program as written, on the GPU
# machine: examples/decouple (the study's loop kernels, annotated) built as
# written (decouple) and as rewritten by `decoupler --passes=split`
# (decouple_dd), on the study's benchmark sizes (docs/split-study.md).
#
#   bench/split/examples.sh BIN_DIR
#
# BIN_DIR holds decouple and decouple_dd: the CMake build's build/examples
# (nvcc -arch=sm_90; carry it to the GPU machine).
# Per kernel and size, three runs of `--time R` (CUDA events around the
# launch statement, one warm-up, median of R; DD_SPLIT_RUNS, default 25),
# each with --verify 1 (every output word against the CPU model) and equal
# digests:
#   original   decouple
#   rewrite    decouple_dd with DD_SPLIT_POLICY=split: the rewritten kernel
#              wherever its launcher can run it
#   adaptive   decouple_dd as it ships (DD_SPLIT_POLICY=adaptive: the
#              launcher times both and keeps the faster); "runs" says which
#              way it settled on (DD_SPLIT_VERBOSE=1), "-" when the launcher
#              never had a choice
# GB/s: the fewest bytes the kernel must move through DRAM (inputs once,
# outputs once; a gather of stride S reads min(4 S, 32) bytes per element)
# over the original's median; "% copy" against `decouple --kernel copy`
# (cudaMemcpy device to device, read + write) in the same run.
set -u
bin=${1:?usage: examples.sh BIN_DIR}
out=${OUT:-.}
runs=${DD_SPLIT_RUNS:-25}
log="$out/split_examples.log"
: >"$log"

# name|args|bytes|latency-bound per the study (1) or not (0)
cases=(
  "fig33|--dim 64 --num 524288|$((2 * 64 * 524288 * 4))|1"
  "fig33step|--dim 64 --num 524288 --step 1|$((2 * 64 * 524288 * 4))|1"
  "stencil|--nx 8192 --ny 8192 --rows 64|$((2 * 8192 * 8192 * 4))|1"
  "spmv|--rows 4194304 --k 16|$((4194304 * 16 * 8 + 4194304 * 8))|0"
  "gather2|--dim 32 --num 524288|$((32 * 524288 * (4 + 8)))|1"
  "gather8|--dim 32 --num 524288|$((32 * 524288 * (4 + 32)))|0"
  "matvec|--rows 8192 --n 8192|$((8192 * 8192 * 4 + 8192 * 8))|1"
  "matvec|--rows 131072 --n 512|$((131072 * 512 * 4 + 131072 * 4 + 512 * 4))|1"
  "kmeans|--points 1048576 --features 34 --clusters 5|$((1048576 * 34 * 4 + 1048576 * 4))|0"
)

# field KEY FILE: the value of KEY=... in FILE.
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" "$2" | head -n 1; }

copy_words=$((1 << 28))
"$bin/decouple" --kernel copy --num $copy_words --time "$runs" >"$out/copy.txt" 2>&1
copy_ms=$(field time_ms "$out/copy.txt")
ceiling=$(awk -v ms="$copy_ms" -v w=$copy_words 'BEGIN { if (ms > 0) printf "%.0f", 2 * w * 4 / ms / 1e6; else print 0 }')

echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>/dev/null | head -n 1)"
echo "copy ceiling (cudaMemcpy D2D, read + write): $ceiling GB/s; median of $runs launches after a warm-up"
echo
echo "| kernel | size | original ms | rewrite ms | adaptive ms | runs | GB/s original | % copy | rewrite speedup | adaptive speedup | latency-bound | check |"
echo "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|"
for c in "${cases[@]}"; do
  IFS='|' read -r k args bytes latency <<<"$c"
  tag="${k}_$(tr -dc '0-9' <<<"$args" | cut -c1-12)"
  # shellcheck disable=SC2086
  timeout -k 5 300 "$bin/decouple" --kernel $k $args --verify 1 --time "$runs" >"$out/$tag.orig" 2>&1
  echo "rc=$?" >>"$out/$tag.orig"
  # shellcheck disable=SC2086
  DD_SPLIT_POLICY=split timeout -k 5 300 "$bin/decouple_dd" --kernel $k $args --verify 1 --time "$runs" \
    >"$out/$tag.split" 2>&1
  echo "rc=$?" >>"$out/$tag.split"
  # shellcheck disable=SC2086
  DD_SPLIT_POLICY=adaptive DD_SPLIT_VERBOSE=1 timeout -k 5 300 "$bin/decouple_dd" --kernel $k $args \
    --verify 1 --time "$runs" >"$out/$tag.adaptive" 2>&1
  echo "rc=$?" >>"$out/$tag.adaptive"
  cat "$out/$tag.orig" "$out/$tag.split" "$out/$tag.adaptive" >>"$log"
  awk -v k="$k" -v args="$args" -v bytes="$bytes" -v ceiling="$ceiling" -v lat="$latency" '
    function ratio(a, b) { return (a != "" && b > 0) ? sprintf("%.2fx", a / b) : "-" }
    FNR == 1 { f++ }
    /^time_ms=/ { if (match($0, /time_ms=[0-9.]+/)) t[f] = substr($0, RSTART + 8, RLENGTH - 8) }
    /^digest / { d[f] = $2 }
    /^verify: ok/ { ok[f] = 1 }
    /^rc=/ { rc[f] = substr($0, 4) }
    /runs the (split|original)/ { w = $0; sub(/.*runs the /, "", w); sub(/[;, ].*/, "", w); way = w }
    END {
      check = "ok"
      for (i = 1; i <= 3; i++)
        if (rc[i] != "0" || !ok[i] || d[i] == "" || d[i] != d[1]) check = "FAIL"
      gbs = t[1] > 0 ? bytes / t[1] / 1e6 : 0
      printf "| %s | %s | %s | %s | %s | %s | %.0f | %.0f | %s | %s | %s | %s |\n", k, args,
        t[1] == "" ? "-" : t[1], t[2] == "" ? "-" : t[2], t[3] == "" ? "-" : t[3],
        (way == "" ? "-" : way), gbs, (ceiling > 0 ? 100 * gbs / ceiling : 0),
        ratio(t[1], t[2]), ratio(t[1], t[3]), lat == "1" ? "yes" : "no", check
    }' "$out/$tag.orig" "$out/$tag.split" "$out/$tag.adaptive"
done | tee "$out/split_examples.md"
echo
awk -F'|' '
  function val(s) { sub(/x/, "", s); return s + 0 }
  $10 ~ /x/ { r = val($10); a = val($11); n++; g += log(r); h += log(a)
              if ($12 ~ /yes/) { m++; gl += log(r); hl += log(a) } }
  END {
    if (n) printf "geomean over %d rows: rewrite %.2fx, adaptive %.2fx\n", n, exp(g / n), exp(h / n)
    if (m) printf "geomean over the %d latency-bound rows: rewrite %.2fx, adaptive %.2fx\n", m, exp(gl / m), exp(hl / m)
  }' "$out/split_examples.md"
