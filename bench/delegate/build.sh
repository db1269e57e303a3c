#!/usr/bin/env bash
# Builds the delegate benchmark and the GPU tests of the delegate runtime with
# plain nvcc (no CMake, no LLVM) into one folder to carry to the GPU machine:
#
#   bench/delegate/build.sh [OUTDIR]      default: .gpu-delegate (git-ignored)
#
# OUTDIR/delegate_bench   HT and ATM, global locks vs <dd/delegate.cuh>
# OUTDIR/watch_bench      what timing a launch with events costs a program
#                         that waits for each launch (the adaptive launchers'
#                         watched launches, dd/detail/launch_watch.h)
# OUTDIR/delegate_test    exactly-once critical sections (test/gpu)
# OUTDIR/channel_stress   the channel stress test (test/gpu), rebuilt because
#                         delegate.cuh shares channel.cuh
# OUTDIR/*.ptxas.txt      ptxas resource reports
# OUTDIR/hashtable, OUTDIR/hashtable_dd, OUTDIR/bank, OUTDIR/bank_dd
#                         examples/hashtable and examples/bank as written and
#                         as rewritten by `decoupler --passes=delegate` (the
#                         rewritten sources kept as OUTDIR/<name>.dd.cu), the
#                         same tool arguments as examples/CMakeLists.txt and
#                         the same nvcc flags for both
#
# Environment: CUDA_PATH (default /usr/local/cuda), NVCC_ARCH (default sm_90),
# DECOUPLER (default build/bin/decoupler: `cmake --build build` first).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${1:-.gpu-delegate}
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
NVCC="$CUDA_PATH/bin/nvcc"
ARCH=${NVCC_ARCH:-sm_90}
mkdir -p "$OUTDIR"
NVFLAGS=(-arch="$ARCH" -O3 -std=c++17 -I runtime/include -Xcompiler -Wall -Xptxas -v)
for src in bench/delegate/delegate_bench.cu bench/delegate/watch_bench.cu test/gpu/delegate_test.cu test/gpu/channel_stress.cu; do
  name=$(basename "$src" .cu)
  echo "== $name"
  "$NVCC" "${NVFLAGS[@]}" "$src" -o "$OUTDIR/$name" 2> "$OUTDIR/$name.ptxas.txt" \
    || { cat "$OUTDIR/$name.ptxas.txt"; exit 1; }
  grep -iE "warning|error" "$OUTDIR/$name.ptxas.txt" || true
done

# The rewritten examples: the tool runs here, nvcc compiles both versions the
# same way (what decoupler_rewrite() in cmake/DecouplerRewrite.cmake does,
# without CMake's flags, so the pair differs only in the rewrite).
DECOUPLER=${DECOUPLER:-build/bin/decoupler}
EXFLAGS=(-I runtime/include -I examples/common)
for ex in hashtable bank; do
  echo "== $ex, ${ex}_dd"
  "$DECOUPLER" --passes=delegate "examples/$ex/$ex.cu" -o "$OUTDIR/$ex.dd.cu" -- "${EXFLAGS[@]}"
  "$NVCC" "${NVFLAGS[@]}" -I examples/common "examples/$ex/$ex.cu" -o "$OUTDIR/$ex" 2> "$OUTDIR/$ex.ptxas.txt" \
    || { cat "$OUTDIR/$ex.ptxas.txt"; exit 1; }
  "$NVCC" "${NVFLAGS[@]}" -I examples/common "$OUTDIR/$ex.dd.cu" -o "$OUTDIR/${ex}_dd" 2> "$OUTDIR/${ex}_dd.ptxas.txt" \
    || { cat "$OUTDIR/${ex}_dd.ptxas.txt"; exit 1; }
  grep -iE "warning|error" "$OUTDIR/$ex.ptxas.txt" "$OUTDIR/${ex}_dd.ptxas.txt" || true
done
