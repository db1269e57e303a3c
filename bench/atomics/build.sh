#!/usr/bin/env bash
# Builds the atomics GPU test and benchmark with plain nvcc command lines
# (no CMake, no LLVM needed to compile), into one folder that can be carried
# to a GPU machine:
#
#   bench/atomics/build.sh [OUTDIR]        default: .gpu-atomics (git-ignored)
#
# OUTDIR/atomics_test          test/gpu/atomics_test.cu
# OUTDIR/atomics_test_shfl     the same with the other code paths forced:
#                              shuffle reductions (the sm_75 path), 64-bit
#                              matches, a one-sample vote with threshold 3
# OUTDIR/atomics_bench         bench/atomics/atomics_bench.cu + kernels.cu
#                              (+ kernels.dd.cu: the "auto" column)
# OUTDIR/kernels.dd.cu         kernels.cu rewritten by build/bin/decoupler
#                              --atomics-float, made when the tool is there;
#                              an existing one is reused where it is not (on
#                              the GPU machine, which has nvcc but no LLVM)
# OUTDIR/graphs/               copies of ../shared/data/graphs (read-only
#                              inputs; the GPU machine cannot see ../shared)
#
# Environment: CUDA_PATH (default /usr/local/cuda), NVCC_ARCH (default
# sm_90), DECOUPLER (default build/bin/decoupler), DD_BUILD_ONLY=test|bench.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${1:-.gpu-atomics}
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}
NVCC="$CUDA_PATH/bin/nvcc"
ARCH=${NVCC_ARCH:-sm_90}
DECOUPLER=${DECOUPLER:-build/bin/decoupler}
ONLY=${DD_BUILD_ONLY:-}
mkdir -p "$OUTDIR/obj"
NVFLAGS=(-arch="$ARCH" -O3 -std=c++17 -I runtime/include -Xcompiler -Wall)
# The configuration atomics_test_shfl checks (keep in step with test/gpu/CMakeLists.txt).
OTHER_PATHS=(-DDD_ATOMICS_NO_REDUX -DDD_ATOMICS_NO_MATCH32 -DDD_VR_SAMPLES=1
             -DDD_VR_THRESHOLD=3 -DDD_INC_CAS_ATTEMPTS=3)

if [[ -z "$ONLY" || "$ONLY" == test ]]; then
  echo "== atomics_test"
  "$NVCC" "${NVFLAGS[@]}" test/gpu/atomics_test.cu -o "$OUTDIR/atomics_test"
  echo "== atomics_test_shfl (the other code paths)"
  "$NVCC" "${NVFLAGS[@]}" "${OTHER_PATHS[@]}" test/gpu/atomics_test.cu \
    -o "$OUTDIR/atomics_test_shfl"
fi

if [[ -z "$ONLY" || "$ONLY" == bench ]]; then
  echo "== dd_graph (host library)"
  objs=()
  # The graph readers write through support/output_file.h (-I .).
  for src in apps/graph/*.cpp support/output_file.cpp; do
    obj="$OUTDIR/obj/graph_$(basename "${src%.cpp}").o"
    g++ -std=c++17 -O2 -Wall -I . -I apps -c "$src" -o "$obj"
    objs+=("$obj")
  done
  rm -f "$OUTDIR/obj/libdd_graph.a"
  ar rcs "$OUTDIR/obj/libdd_graph.a" "${objs[@]}"

  echo "== kernels.cu (naive)"
  "$NVCC" "${NVFLAGS[@]}" -c bench/atomics/kernels.cu -o "$OUTDIR/obj/kernels.o"
  link=("$OUTDIR/obj/kernels.o")
  have_auto=()
  if [[ -x "$DECOUPLER" ]]; then
    echo "== kernels.dd.cu ($DECOUPLER --atomics-float)"
    "$DECOUPLER" --atomics-float bench/atomics/kernels.cu -o "$OUTDIR/kernels.dd.cu" \
      -- -I runtime/include
  fi
  if [[ -f "$OUTDIR/kernels.dd.cu" ]] && ! cmp -s bench/atomics/kernels.cu "$OUTDIR/kernels.dd.cu"; then
    echo "== kernels.dd.cu (auto)"
    "$NVCC" "${NVFLAGS[@]}" -DDD_BENCH_NS=autorw -I bench/atomics -x cu -c \
      "$OUTDIR/kernels.dd.cu" -o "$OUTDIR/obj/kernels_auto.o"
    link+=("$OUTDIR/obj/kernels_auto.o")
    have_auto=(-DDD_BENCH_HAVE_AUTO)
  else
    echo "== no rewritten kernels.dd.cu: the auto column is left out"
  fi
  echo "== atomics_bench"
  "$NVCC" "${NVFLAGS[@]}" "${have_auto[@]}" -I . -I apps -I bench/atomics -c \
    bench/atomics/atomics_bench.cu -o "$OUTDIR/obj/atomics_bench.o"
  "$NVCC" -arch="$ARCH" "$OUTDIR/obj/atomics_bench.o" "${link[@]}" \
    "$OUTDIR/obj/libdd_graph.a" -o "$OUTDIR/atomics_bench"

  if [[ -d ../shared/data/graphs ]]; then
    mkdir -p "$OUTDIR/graphs"
    cp -f ../shared/data/graphs/chesapeake.mtx ../shared/data/graphs/wiki-Vote.txt \
      ../shared/data/graphs/luxembourg_osm.edges "$OUTDIR/graphs/"
    chmod u+w "$OUTDIR/graphs/"*
  fi
fi
echo "== done: $OUTDIR"
