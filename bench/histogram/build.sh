#!/usr/bin/env bash
# Builds the histogram benchmark with plain nvcc command lines (no CMake, no
# LLVM needed to compile), into one folder that can be carried to a GPU
# machine:
#
#   bench/histogram/build.sh [OUTDIR]      default: .gpu-histogram (git-ignored)
#
# OUTDIR/kernels.dd.cu          bench/histogram/kernels.cu rewritten by
#                               $DECOUPLER, made when the tool is there (a
#                               failing rewrite fails the build); an
#                               existing one is reused where the tool is not
#                               (on the GPU machine, which has nvcc but no
#                               LLVM)
# OUTDIR/histogram_bench        histogram_bench.cu + kernels.cu (naive) +
#                               kernels.dd.cu (auto, -DDD_BENCH_NS=autorw)
# OUTDIR/histogram_bench_extra  only when DD_EXTRA_NVFLAGS is set: the same,
#                               the auto object compiled with those flags
#                               appended (e.g. runtime macros such as
#                               -DDD_VR_SAMPLES=1)
#
# Environment: CUDA_PATH (default /usr/local/cuda), NVCC_ARCH (default
# sm_90), DECOUPLER (default build/bin/decoupler), DD_EXTRA_NVFLAGS.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${1:-.gpu-histogram}
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
NVCC="$CUDA_PATH/bin/nvcc"
ARCH=${NVCC_ARCH:-sm_90}
DECOUPLER=${DECOUPLER:-build/bin/decoupler}
EXTRA=${DD_EXTRA_NVFLAGS:-}
SRC=bench/histogram
mkdir -p "$OUTDIR/obj"
# 20199: nvcc's "unrecognized #pragma in device code" for the `#pragma dd`
# annotations of kernels.cu, which a plain compiler is meant to ignore.
NVFLAGS=(-arch="$ARCH" -O3 -std=c++17 -I runtime/include -Xcompiler -Wall -diag-suppress 20199)

if [[ -x "$DECOUPLER" ]]; then
  echo "== kernels.dd.cu ($DECOUPLER $SRC/kernels.cu)"
  # Into a scratch name first, so that a failed rewrite leaves no stale
  # kernels.dd.cu behind to be reused by a later build.
  rm -f "$OUTDIR/kernels.dd.cu"
  if ! "$DECOUPLER" "$SRC/kernels.cu" -o "$OUTDIR/kernels.dd.cu.tmp" -- -I runtime/include; then
    rm -f "$OUTDIR/kernels.dd.cu.tmp"
    echo "build.sh: error: $DECOUPLER failed on $SRC/kernels.cu (see above);" \
         "no auto column can be built" >&2
    exit 1
  fi
  mv "$OUTDIR/kernels.dd.cu.tmp" "$OUTDIR/kernels.dd.cu"
elif [[ -f "$OUTDIR/kernels.dd.cu" ]]; then
  echo "== $DECOUPLER not found: reusing $OUTDIR/kernels.dd.cu"
else
  echo "build.sh: error: neither $DECOUPLER nor $OUTDIR/kernels.dd.cu exists;" \
       "build the tool (or set DECOUPLER) to make the auto column" >&2
  exit 1
fi
if cmp -s "$SRC/kernels.cu" "$OUTDIR/kernels.dd.cu"; then
  echo "build.sh: error: $OUTDIR/kernels.dd.cu is kernels.cu unchanged: the tool" \
       "rewrote nothing" >&2
  exit 1
fi

echo "== kernels.cu (naive)"
"$NVCC" "${NVFLAGS[@]}" -c "$SRC/kernels.cu" -o "$OUTDIR/obj/kernels.o"
echo "== kernels.dd.cu (auto)"
"$NVCC" "${NVFLAGS[@]}" -DDD_BENCH_NS=autorw -I "$SRC" -x cu -c "$OUTDIR/kernels.dd.cu" \
  -o "$OUTDIR/obj/kernels_auto.o"
echo "== histogram_bench"
"$NVCC" "${NVFLAGS[@]}" -DDD_BENCH_HAVE_AUTO -c "$SRC/histogram_bench.cu" \
  -o "$OUTDIR/obj/histogram_bench.o"
"$NVCC" -arch="$ARCH" "$OUTDIR/obj/histogram_bench.o" "$OUTDIR/obj/kernels.o" \
  "$OUTDIR/obj/kernels_auto.o" -o "$OUTDIR/histogram_bench"

if [[ -n "$EXTRA" ]]; then
  read -r -a extra_flags <<<"$EXTRA"
  echo "== kernels.dd.cu (auto, DD_EXTRA_NVFLAGS: $EXTRA)"
  "$NVCC" "${NVFLAGS[@]}" -DDD_BENCH_NS=autorw -I "$SRC" "${extra_flags[@]}" -x cu -c \
    "$OUTDIR/kernels.dd.cu" -o "$OUTDIR/obj/kernels_auto_extra.o"
  "$NVCC" -arch="$ARCH" "$OUTDIR/obj/histogram_bench.o" "$OUTDIR/obj/kernels.o" \
    "$OUTDIR/obj/kernels_auto_extra.o" -o "$OUTDIR/histogram_bench_extra"
  echo "$EXTRA" >"$OUTDIR/histogram_bench_extra.flags"
else
  rm -f "$OUTDIR/histogram_bench_extra" "$OUTDIR/histogram_bench_extra.flags"
fi
echo "== done: $OUTDIR"
