#!/usr/bin/env bash
# Runs the atomics benchmark on the GPU machine and writes under $OUT:
#   atomics_bench.md        the Markdown table
#   atomics_bench_raw.csv   every timed run (bench,input,column,rep,ms)
#   atomics_bench.log       the whole output
#   gpu.txt                 nvidia-smi's view of the GPU before and after
#
#   bench/atomics/run.sh [atomics_bench options...]
#
# Uses the binaries bench/atomics/build.sh made in DD_GPU_DIR (default
# .gpu-atomics, carried to the machine); if they do not start there (other
# system libraries), rebuilds them there with build.sh (nvcc is there; the
# carried kernels.dd.cu stands in for the decoupler tool, which is not).
set -u
cd "$(dirname "$0")/../.."
dir=${DD_GPU_DIR:-.gpu-atomics}
out=${OUT:-.}
mkdir -p "$out"
query=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu
nvidia-smi --query-gpu=$query --format=csv >"$out/gpu.txt" 2>&1 || true
if ! "$dir/atomics_bench" --only none --reps 1 >/dev/null 2>&1; then
  echo "atomics_bench does not start here; rebuilding with bench/atomics/build.sh"
  DD_BUILD_ONLY=bench bench/atomics/build.sh "$dir" || exit 1
fi
set -o pipefail
"$dir/atomics_bench" --graphs "$dir/graphs" --out "$out" "$@" 2>&1 | tee "$out/atomics_bench.log"
rc=$?
nvidia-smi --query-gpu=$query --format=csv,noheader >>"$out/gpu.txt" 2>&1 || true
exit $rc
