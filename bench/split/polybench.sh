#!/usr/bin/env bash
# PolyBench/GPU's programs whose loops `decoupler --split=auto` splits,
# built as written and as rewritten, run side by side on the GPU machine.
#
#   bench/split/polybench.sh build DECOUPLER POLYBENCH_DIR WORK_DIR
#       (here: needs the tool and nvcc) copies each program folder of
#       POLYBENCH_DIR/CUDA that the split changes into WORK_DIR, turns its
#       CPU run off (the program then prints its GPU output; %a, so the
#       comparison is exact), rewrites it with --passes=split --split=auto
#       and builds both with nvcc -arch=sm_90. ATAX and MVT launch their
#       split kernel with 32 x 8 blocks, which the launcher runs as written
#       (1-D blocks only); their "-1d" copies use 256 x 1 blocks.
#   bench/split/polybench.sh run WORK_DIR [RUNS]
#       (on the GPU machine; carry WORK_DIR) runs every program RUNS times
#       (default 5) each way, the ways interleaved: written, rewritten as
#       shipped (the launcher's adaptive choice), DD_SPLIT_POLICY=split and
#       =original. Prints the median of PolyBench's own "GPU Time" (wall
#       clock around the kernel launches and their synchronizations) per
#       way, and whether every run printed the same GPU output bytes.
#
# POLYBENCH_DIR is sgrauerg/polybenchGpu (CUDA/ and common/), with
# cudaThreadSynchronize renamed cudaDeviceSynchronize (CUDA 13 removed it;
# docs/corpus.md). Exit status 1 when an output differs or a run fails.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runtime="$here/../../runtime/include"
programs="ATAX/atax BICG/bicg CORR/correlation COVAR/covariance GEMVER/gemver MVT/mvt"
defines=(-DDATA_TYPE=float '-DDATA_PRINTF_MODIFIER="%a "')

build() {
  local dd=$1 pb=$2 work=$3
  local nvcc=${NVCC:-${CUDA_PATH:-/usr/local/cuda}/bin/nvcc}
  [ -x "$dd" ] || { echo "polybench.sh: no decoupler at $dd" >&2; exit 2; }
  [ -d "$pb/CUDA" ] && [ -d "$pb/common" ] ||
    { echo "polybench.sh: $pb has no CUDA/ and common/" >&2; exit 2; }
  mkdir -p "$work/bin" && cp -r "$pb/common" "$work/" || exit 2
  for p in $programs; do
    local dir=${p%/*} name=${p#*/}
    for shape in as-written 1d; do
      [ $shape = 1d ] && [ "$dir" != ATAX ] && [ "$dir" != MVT ] && continue
      local v=$dir-$shape src=$work/CUDA/$dir-$shape
      mkdir -p "$src" && cp "$pb/CUDA/$dir"/*.cu "$pb/CUDA/$dir"/*.cuh "$src/" || exit 2
      sed -i 's|^#define RUN_ON_CPU|// RUN_ON_CPU off: the GPU output is printed|' "$src/$name.cu"
      [ $shape = 1d ] && sed -i \
        -e 's/^\(#define DIM_THREAD_BLOCK[A-Z0-9_]*_X\) 32$/\1 256/' \
        -e 's/^\(#define DIM_THREAD_BLOCK[A-Z0-9_]*_Y\) 8$/\1 1/' "$src/$name.cuh"
      "$dd" --passes=split --split=auto "$src/$name.cu" -o "$src/$name.dd.cu" \
        -- -I "$work/common" "${defines[@]}" 2>"$src/remarks.txt" ||
        { cat "$src/remarks.txt" >&2; exit 1; }
      grep -q '_split<<<' "$src/$name.dd.cu" ||
        { echo "polybench.sh: the split did not change $p" >&2; exit 1; }
      grep -o 'rewritten: [a-z_0-9]*_split' "$src/remarks.txt" | sed "s|^|$v: |"
      "$nvcc" -arch=sm_90 -O3 -I "$runtime" "${defines[@]}" "$src/$name.cu" -o "$work/bin/$v.written" &&
        "$nvcc" -arch=sm_90 -O3 -I "$runtime" "${defines[@]}" "$src/$name.dd.cu" -o "$work/bin/$v.rewritten" ||
        exit 1
    done
  done
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "nan"}'; }

run() {
  local work=$1 runs=${2:-5} status=0
  local log=$work/logs; mkdir -p "$log"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/# /'
  echo "# median of $runs runs of PolyBench's GPU Time, ms; ratio > 1: the rewrite is faster"
  echo "| program | written | rewritten (as shipped) | split forced | original forced | written / rewritten | written / split | output |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
  for b in "$work"/bin/*.written; do
    local v; v=$(basename "$b" .written)
    : >"$log/$v.times"
    for i in $(seq "$runs"); do
      for way in written rewritten split original; do
        local exe=$work/bin/$v.rewritten policy=adaptive
        case $way in
        written) exe=$b ;;
        split) policy=split ;;
        original) policy=original ;;
        esac
        if ! DD_SPLIT_POLICY=$policy "$exe" >"$log/$v.$way.$i.out" 2>"$log/$v.$way.$i.err"; then
          echo "polybench.sh: $v $way run $i failed" >&2; status=1
        fi
        local t; t=$(grep -A1 'GPU Time' "$log/$v.$way.$i.out" | tail -1)
        echo "$way ${t:-nan}" >>"$log/$v.times"
        grep -v '^dd: ' "$log/$v.$way.$i.err" | md5sum | cut -c1-32 >>"$log/$v.digests"
      done
    done
    local m=()
    for way in written rewritten split original; do
      m+=("$(awk -v w=$way '$1 == w {print $2 * 1000}' "$log/$v.times" | median)")
    done
    local same=identical
    [ "$(sort -u "$log/$v.digests" | wc -l)" = 1 ] || { same=DIFFERENT; status=1; }
    rm -f "$log/$v.digests"
    awk -v v="$v" -v w="${m[0]}" -v r="${m[1]}" -v s="${m[2]}" -v o="${m[3]}" -v same="$same" \
      'BEGIN {printf "| %s | %.3f | %.3f | %.3f | %.3f | %.2fx | %.2fx | %s |\n", v, w, r, s, o, w / r, w / s, same}'
  done
  return $status
}

case ${1:-} in
build) [ $# = 4 ] || { echo "usage: polybench.sh build DECOUPLER POLYBENCH_DIR WORK_DIR" >&2; exit 2; }
  build "$2" "$3" "$4" ;;
run) [ $# -ge 2 ] || { echo "usage: polybench.sh run WORK_DIR [RUNS]" >&2; exit 2; }
  run "$2" "${3:-5}" ;;
*) echo "usage: polybench.sh build DECOUPLER POLYBENCH_DIR WORK_DIR | run WORK_DIR [RUNS]" >&2
  exit 2 ;;
esac
