#!/usr/bin/env bash
# Runs the histogram benchmark on the GPU machine and writes under $OUT
# (default .):
#   histogram_bench.md        the Markdown tables
#   histogram_bench_raw.csv   every run (table,input,column,run,set,warmup,ms)
#   histogram_bench.log       the whole output
#   gpu.txt                   nvidia-smi's view of the GPU before and after
#
#   bench/histogram/run.sh [histogram_bench options...]
#
# Uses the binary bench/histogram/build.sh made in DD_GPU_DIR (default
# .gpu-histogram, carried to the machine); DD_BENCH_BIN=histogram_bench_extra
# runs the DD_EXTRA_NVFLAGS build instead. If the binary does not start there
# (other system libraries), rebuilds it there with build.sh (nvcc is there;
# the carried kernels.dd.cu stands in for the decoupler tool, which is not).
set -u
cd "$(dirname "$0")/../.."
dir=${DD_GPU_DIR:-.gpu-histogram}
bin=${DD_BENCH_BIN:-histogram_bench}
out=${OUT:-.}
mkdir -p "$out"
query=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu
nvidia-smi --query-gpu=$query --format=csv >"$out/gpu.txt" 2>&1 || true
if ! "$dir/$bin" --only none --reps 1 >/dev/null 2>&1; then
  echo "$bin does not start here; rebuilding with bench/histogram/build.sh"
  if [[ "$bin" == histogram_bench_extra && -f "$dir/histogram_bench_extra.flags" ]]; then
    DD_EXTRA_NVFLAGS=$(cat "$dir/histogram_bench_extra.flags") bench/histogram/build.sh "$dir" || exit 1
  else
    bench/histogram/build.sh "$dir" || exit 1
  fi
fi
set -o pipefail
"$dir/$bin" --out "$out" "$@" 2>&1 | tee "$out/histogram_bench.log"
rc=$?
nvidia-smi --query-gpu=$query --format=csv,noheader >>"$out/gpu.txt" 2>&1 || true
exit $rc
