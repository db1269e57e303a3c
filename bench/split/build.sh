#!/usr/bin/env bash
# Builds the hand-split study with plain nvcc (no CMake, no LLVM), into one
# folder that can be carried to the GPU machine:
#
#   bench/split/build.sh [OUTDIR]        default: .gpu-split (git-ignored)
#
# OUTDIR/split_bench          the benchmark and its checks (sm_90: bulk copies)
# OUTDIR/split_bench_nobulk   the same with DD_AFFINE_QUEUE_NO_BULK: contiguous
#                             tiles by 16-byte cp.async, the sm_80 path, run on
#                             the same GPU to check it
# OUTDIR/split_bench_poll     DD_AFFINE_QUEUE_POLL: waits poll (test_wait)
#                             instead of suspending (try_wait)
# OUTDIR/*.ptxas.txt          ptxas resource reports (registers, spills)
#
# Environment: CUDA_PATH (default /usr/local/cuda), NVCC_ARCH (default sm_90).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${1:-.gpu-split}
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
NVCC="$CUDA_PATH/bin/nvcc"
ARCH=${NVCC_ARCH:-sm_90}
mkdir -p "$OUTDIR"
NVFLAGS=(-arch="$ARCH" -O3 -std=c++17 -I runtime/include -Xcompiler -Wall -Xptxas -v)
echo "== split_bench"
"$NVCC" "${NVFLAGS[@]}" bench/split/split_bench.cu -o "$OUTDIR/split_bench" \
  2> "$OUTDIR/split_bench.ptxas.txt" || { cat "$OUTDIR/split_bench.ptxas.txt"; exit 1; }
echo "== split_bench_nobulk"
"$NVCC" "${NVFLAGS[@]}" -DDD_AFFINE_QUEUE_NO_BULK bench/split/split_bench.cu \
  -o "$OUTDIR/split_bench_nobulk" 2> "$OUTDIR/split_bench_nobulk.ptxas.txt" \
  || { cat "$OUTDIR/split_bench_nobulk.ptxas.txt"; exit 1; }
echo "== split_bench_poll"
"$NVCC" "${NVFLAGS[@]}" -DDD_AFFINE_QUEUE_POLL bench/split/split_bench.cu \
  -o "$OUTDIR/split_bench_poll" 2> "$OUTDIR/split_bench_poll.ptxas.txt" \
  || { cat "$OUTDIR/split_bench_poll.ptxas.txt"; exit 1; }
grep -iE "warning|error" "$OUTDIR"/*.ptxas.txt | grep -v "^.*ptxas info" || true
