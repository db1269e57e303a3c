#!/usr/bin/env bash
# Runs the hand-split study on the GPU machine (one call) and writes under $OUT:
#   gpu.txt                      nvidia-smi's view of the GPU before and after
#   split_bench.md               the table and the probes (bulk-copy build)
#   split_bench_carveout100.md   the same with the split kernels' preferred
#                                shared-memory carveout at 100 %
#   split_bench_repeat.md        fig33, matvec, spmv again (run-to-run spread)
#   split_bench_nobulk.md        DD_AFFINE_QUEUE_NO_BULK build (the sm_80 path)
#   split_bench_poll.md          DD_AFFINE_QUEUE_POLL build (waits poll)
#   logs.tar.gz                  every log (the checks, compute-sanitizer
#                                memcheck and synccheck over --quick) and SASS
#
#   bench/split/run.sh
#
# Uses the binaries bench/split/build.sh made in DD_GPU_DIR (default
# .gpu-split, carried to the machine). Every step has its own time limit, so
# a hang in one cannot eat the others'; the main table is printed last.
set -u
cd "$(dirname "$0")/../.."
dir=${DD_GPU_DIR:-.gpu-split}
out=${OUT:-.}
logs=$(mktemp -d)
query=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw
nvidia-smi --query-gpu=$query --format=csv >"$out/gpu.txt" 2>&1 || true
status() { echo "== $1: exit $2"; }

timeout 30 "$dir/split_bench" --quick >"$logs/quick.log" 2>&1
status quick $?
mkdir -p "$logs/main" "$logs/carveout" "$logs/repeat" "$logs/nobulk"
timeout 120 "$dir/split_bench" --out "$logs/main" >"$logs/main.log" 2>&1
status main $?
nvidia-smi --query-gpu=$query --format=csv,noheader >>"$out/gpu.txt" 2>&1 || true
timeout 90 "$dir/split_bench" --carveout 100 --out "$logs/carveout" \
  --only fig33,stencil,spmv,matvec,kmeans,probes >"$logs/carveout.log" 2>&1
status carveout $?
timeout 60 "$dir/split_bench" --only fig33,matvec,spmv --out "$logs/repeat" >"$logs/repeat.log" 2>&1
status repeat $?
timeout 90 "$dir/split_bench_nobulk" --out "$logs/nobulk" >"$logs/nobulk.log" 2>&1
status nobulk $?
mkdir -p "$logs/poll"
timeout 60 "$dir/split_bench_poll" --only fig33,matvec,spmv,probes --out "$logs/poll" \
  >"$logs/poll.log" 2>&1
status poll $?
for tool in memcheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool "$dir/split_bench" --quick >"$logs/$tool.log" 2>&1
  status $tool $?
done
cuobjdump -sass "$dir/split_bench" >"$logs/split_bench.sass" 2>&1 || true
nvidia-smi --query-gpu=$query --format=csv,noheader >>"$out/gpu.txt" 2>&1 || true
cp "$logs/main/split_bench.md" "$out/split_bench.md" 2>/dev/null
cp "$logs/carveout/split_bench.md" "$out/split_bench_carveout100.md" 2>/dev/null
cp "$logs/repeat/split_bench.md" "$out/split_bench_repeat.md" 2>/dev/null
cp "$logs/nobulk/split_bench.md" "$out/split_bench_nobulk.md" 2>/dev/null
cp "$logs/poll/split_bench.md" "$out/split_bench_poll.md" 2>/dev/null
tar -C "$logs" -czf "$out/logs.tar.gz" . 2>/dev/null
grep -h -E "DIFFERENT|^# checks|ERROR SUMMARY" "$logs"/*.log
cat "$out/gpu.txt"
grep -E "^# " "$logs/main.log" | head -3
cat "$out/split_bench.md" 2>/dev/null || tail -n 60 "$logs/main.log"
