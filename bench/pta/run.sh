#!/usr/bin/env bash
# Points-to analysis on the CPU and on the GPU (atomic and atomic-free), on
# the GPU machine, one table (docs/PERF.md, "Points-to analysis"):
#
#   bench/pta/run.sh BIN_DIR INPUT...
#
# BIN_DIR holds dd-pta. Each INPUT (.ll or .bc: bench/pta/make-input.sh) is
# solved with --algo=cpu, gpu-atomic and gpu-free, --runs=$PTA_RUNS (default
# 5; the GPU after one untimed solve), the GPU ones with --verify (the same
# sets as the CPU's, or the row says FAILED). Times are dd-pta's medians:
# the solve only (the constraints extracted and, on the GPU, on the device),
# and on the GPU also with the copies in and out ("total"). Ratios > 1: the
# atomic-free variant is faster.
set -u
bin=${1:?usage: run.sh BIN_DIR INPUT...}
shift
runs=${PTA_RUNS:-5}
timeout_s=${PTA_TIMEOUT:-300}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
field() { sed -n "s/.*[ ]$1[= ]\([0-9.]*\).*/\1/p" "$log" | tail -n 1; }
echo "| input | nodes | locations | facts | rounds | cpu ms | gpu-atomic ms (total) | gpu-free ms (total) | atomic / free | verify |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for f in "$@"; do
  name=$(basename "$f")
  timeout "$timeout_s" "$bin/dd-pta" --algo=cpu --runs="$runs" "$f" >"$log" 2>&1
  cpu=$(field time_ms)
  nodes=$(field nodes)
  facts=$(field facts)
  declare -A ms total rounds locs ok
  for algo in gpu-atomic gpu-free; do
    if timeout "$timeout_s" "$bin/dd-pta" --algo=$algo --verify --stats --runs="$runs" "$f" \
      >"$log" 2>&1 && grep -q '^verify: ok' "$log"; then
      ok[$algo]=ok
    else
      ok[$algo]=FAILED
    fi
    ms[$algo]=$(field time_ms)
    total[$algo]=$(field total_ms)
    rounds[$algo]=$(field rounds)
    locs[$algo]=$(field locations)
  done
  ratio=$(awk -v a="${ms[gpu-atomic]}" -v b="${ms[gpu-free]}" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "-" }')
  echo "| $name | $nodes | ${locs[gpu-free]} | $facts | ${rounds[gpu-free]} | $cpu | ${ms[gpu-atomic]} (${total[gpu-atomic]}) | ${ms[gpu-free]} (${total[gpu-free]}) | $ratio | atomic ${ok[gpu-atomic]}, free ${ok[gpu-free]} |"
done
