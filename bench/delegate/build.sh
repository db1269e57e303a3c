#!/usr/bin/env bash
# Builds the delegate benchmark and the GPU tests of the delegate runtime with
# plain nvcc (no CMake, no LLVM) into one folder to carry to the GPU machine:
#
#   bench/delegate/build.sh [OUTDIR]      default: .gpu-delegate (git-ignored)
#
# OUTDIR/delegate_bench   HT and ATM, global locks vs <dd/delegate.cuh>
# OUTDIR/delegate_test    exactly-once critical sections (test/gpu)
# OUTDIR/channel_stress   the channel stress test (test/gpu), rebuilt because
#                         delegate.cuh shares channel.cuh
# OUTDIR/*.ptxas.txt      ptxas resource reports
#
# Environment: CUDA_PATH (default /usr/local/cuda), NVCC_ARCH (default sm_90).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${1:-.gpu-delegate}
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
NVCC="$CUDA_PATH/bin/nvcc"
ARCH=${NVCC_ARCH:-sm_90}
mkdir -p "$OUTDIR"
NVFLAGS=(-arch="$ARCH" -O3 -std=c++17 -I runtime/include -Xcompiler -Wall -Xptxas -v)
for src in bench/delegate/delegate_bench.cu test/gpu/delegate_test.cu test/gpu/channel_stress.cu; do
  name=$(basename "$src" .cu)
  echo "== $name"
  "$NVCC" "${NVFLAGS[@]}" "$src" -o "$OUTDIR/$name" 2> "$OUTDIR/$name.ptxas.txt" \
    || { cat "$OUTDIR/$name.ptxas.txt"; exit 1; }
  grep -iE "warning|error" "$OUTDIR/$name.ptxas.txt" || true
done
