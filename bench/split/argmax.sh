#!/usr/bin/env bash
# ggml's argmax shape, written against rewritten (bench/split/argmax_bench.cu).
#
#   bench/split/argmax.sh build DECOUPLER WORK_DIR   (here: the tool and nvcc)
#   bench/split/argmax.sh run WORK_DIR [TURNS]       (on the GPU machine)
#
# `run` runs each shape TURNS times (default 3), the three ways in turn:
# written (W), rewritten as shipped (R: the launcher's adaptive choice) and
# DD_SPLIT_POLICY=split (S); per turn the median ms of each. Exit status 1
# when a way's results hash differently from the written program's.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
shapes=("4096 4096 256" "32768 1024 256" "262144 132 256" "4096 4096 128" "1024 16384 256" "4096 4096 1024")
case ${1:-} in
  build)
    dd=${2:?decoupler}; work=${3:?work dir}
    nvcc=${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
    mkdir -p "$work" || exit 2
    "$dd" --passes=split --split=auto "$here/argmax_bench.cu" -o "$work/argmax_bench.dd.cu" || exit 1
    "$nvcc" -arch=sm_90 -O3 -std=c++17 -I "$here/../../runtime/include" "$here/argmax_bench.cu" -o "$work/written" &&
      "$nvcc" -arch=sm_90 -O3 -std=c++17 -I "$here/../../runtime/include" "$work/argmax_bench.dd.cu" \
        -o "$work/rewritten"
    ;;
  run)
    work=${2:?work dir}; turns=${3:-3}; status=0
    for shape in "${shapes[@]}"; do
      for ((t = 1; t <= turns; ++t)); do
        w=$("$work/written" $shape) r=$("$work/rewritten" $shape) s=$(DD_SPLIT_POLICY=split "$work/rewritten" $shape)
        field() { echo "$1" | sed -n "s/.* $2 \([^ ]*\).*/\1/p"; }
        for x in "$r" "$s"; do
          [ "$(field "$x" hash)" = "$(field "$w" hash)" ] || { echo "results differ: $shape"; status=1; }
        done
        echo "$shape | W $(field "$w" median_ms) | R $(field "$r" median_ms) | S $(field "$s" median_ms)"
      done
    done
    exit $status
    ;;
  *)
    echo "usage: bench/split/argmax.sh build DECOUPLER WORK_DIR | run WORK_DIR [TURNS]" >&2
    exit 2
    ;;
esac
