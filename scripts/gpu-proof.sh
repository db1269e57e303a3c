#!/usr/bin/env bash
# Every GPU check of the project in one device call.
#
#   scripts/gpu-proof.sh pack [DIR]   here: build the GPU test programs and the
#                                     examples (original and rewritten), copy
#                                     them, dd-sssp, dd-mst, dd-maxflow, dd-maxflow-turns, dd-sp, dd-dmr and the graphs into DIR
#                                     (default .gpu-proof, git-ignored); fails
#                                     when DIR/bin lacks a program that
#                                     test/gpu/examples-differential.sh runs
#   scripts/gpu-proof.sh run [DIR [SUITE...]]
#                                     on the GPU machine (carry DIR): run
#                                     atomics_test, channel_stress,
#                                     delegate_test, delegate_bench --quick
#                                     (its exact checks, small sizes), the
#                                     examples differential test, the
#                                     split, atomics and delegate passes' lit programs
#                                     written against rewritten
#                                     (test/gpu/lit-programs-differential.sh), the
#                                     dd-sssp verification (every algorithm),
#                                     the dd-mst verification (locks and
#                                     delegate, test/gpu/mst-verify.sh),
#                                     the dd-maxflow verification
#                                     (test/gpu/maxflow-verify.sh),
#                                     the dd-sp verification (atomic,
#                                     gather; test/gpu/sp-verify.sh),
#                                     the dd-dmr verification (locks,
#                                     atomic, pass, free, cpu;
#                                     test/gpu/dmr-verify.sh),
#                                     racecheck of the delegated examples
#                                     and the ADDS stress test; logs under
#                                     $OUT
#
# `run` ends with one line "gpu-proof: N passed, N failed" (suites, not
# cases; each suite's own counts are in its log) and exits 1 when any failed.
# Naming suites (atomics_test channel_stress delegate_test delegate_bench
# examples split atomics delegate sssp mst maxflow sp dmr racecheck adds) runs only those: the whole run takes longer
# than one 10-minute device call (racecheck alone several minutes), so it is
# usually split in two calls, e.g. `run DIR racecheck adds` and the rest.
# The device machine has nvcc but no LLVM, so everything is built here.
set -u
cmd=${1:-}
dir=${2:-.gpu-proof}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DECOUPLER_BUILD_DIR:-$root/build}"

pack() {
  set -e
  "$root/scripts/setup.sh" >/dev/null
  cmake --build "$build" --target atomics_test channel_stress delegate_test dd-sssp dd-mst dd-maxflow dd-maxflow-turns dd-sp dd-dmr dd-graph \
    histogram histogram_dd privatize privatize_dd spmv_coo spmv_coo_dd sssp_topology sssp_topology_dd \
    hashtable hashtable_dd bank bank_dd ledger ledger_dd reply reply_dd decouple decouple_dd >&2
  mkdir -p "$dir/bin" "$dir/graphs"
  cp "$build"/bin/{atomics_test,channel_stress,delegate_test,dd-sssp,dd-mst,dd-maxflow,dd-maxflow-turns,dd-sp,dd-dmr,dd-graph} "$dir/bin/"
  # The delegate benchmark is not a CMake target (bench/delegate/build.sh).
  "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" -arch=sm_90 -O3 -std=c++17 -I "$root/runtime/include" \
    "$root/bench/delegate/delegate_bench.cu" -o "$dir/bin/delegate_bench"
  # Every example test/gpu/examples-differential.sh runs, as written and rewritten.
  cp "$build"/examples/{histogram,privatize,spmv_coo,sssp_topology,hashtable,bank,ledger,reply,decouple}{,_dd} "$dir/bin/"
  # racecheck names source lines only in -lineinfo builds.
  mkdir -p "$dir/bin/lineinfo"
  for ex in hashtable bank; do
    "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" -arch=sm_90 -O3 -std=c++17 -lineinfo \
      -I "$root/runtime/include" -I "$root/examples/common" -I "$root/examples/$ex" \
      "$build/examples/decoupler/${ex}_dd/$ex/$ex.dd.cu" -o "$dir/bin/lineinfo/${ex}_dd"
  done
  # The passes' lit programs (test/split, test/atomics and test/delegate
  # files with a main), as written and as decoupler rewrites them, for
  # test/gpu/lit-programs-differential.sh.
  lit_programs split --passes=split --split=auto
  lit_programs atomics
  lit_programs delegate --passes=delegate
  rm -rf "$dir/runtime" && cp -r "$root/runtime/include" "$dir/runtime"
  cp "$root/test/gpu/examples-differential.sh" "$root/test/gpu/sssp-verify.sh" "$root/test/gpu/mst-verify.sh" \
     "$root/test/gpu/maxflow-verify.sh" "$root/test/gpu/sp-verify.sh" "$root/test/gpu/dmr-verify.sh" \
     "$root/test/gpu/adds-stress.sh" "$root/test/gpu/racecheck.sh" "$root/test/gpu/run.sh" \
     "$root/test/gpu/lit-programs-differential.sh" "$dir/"
  local shared="$root/../shared/data/graphs"
  [ -d "$shared" ] && cp "$shared"/*.mtx "$shared"/*.txt "$shared"/*.edges "$dir/graphs/"
  cp "$root"/test/dmr/Inputs/L.node "$root"/test/dmr/Inputs/L.ele "$dir/graphs/"
  "$build/bin/dd-graph" generate kron --scale=14 --seed=3 -o "$dir/graphs/kron14.gr"
  "$build/bin/dd-graph" generate grid --rows=128 --cols=128 --seed=5 -o "$dir/graphs/grid128.gr"
  chmod -R u+w "$dir"
  # A program the differential test runs but the bundle lacks fails only on
  # the GPU, one case at a time: check here, by the names it runs.
  local ex prog missing=0
  for ex in $(grep -oE '^\s*([A-Z_]+=[^ ]+ +)*run [a-z_]+' "$root/test/gpu/examples-differential.sh" |
              awk '{print $NF}' | sort -u); do
    for prog in "$ex" "${ex}_dd"; do
      [ -x "$dir/bin/$prog" ] || { echo "gpu-proof: pack: $dir/bin/$prog is missing" >&2; missing=1; }
    done
  done
  [ "$missing" -eq 0 ]
  # Host symbols out (device code and its line info stay in the fatbins):
  # the bundle must fit the device call's 64 MiB carry (67 MB unstripped,
  # 53 MB stripped, 2026-11-29). The racecheck builds keep theirs.
  find "$dir/bin" -path "$dir/bin/lineinfo" -prune -o -type f -perm -u+x -print |
    while read -r f; do strip "$f" 2>/dev/null || true; done
  du -sh "$dir" >&2
}

# lit_programs PASS [DECOUPLER FLAG...]: test/PASS/*.cu with a main, built
# as written and rewritten into $dir/bin/PASS (their Inputs/ on the path).
lit_programs() {
  local pass=$1 src name nvcc="${CUDA_PATH:-/usr/local/cuda}/bin/nvcc"
  shift
  mkdir -p "$dir/bin/$pass"
  for src in $(grep -l '^int main' "$root/test/$pass"/*.cu); do
    name=$(basename "$src" .cu)
    local inc=(-I "$(dirname "$src")" -I "$(dirname "$src")/Inputs")
    "$build/bin/decoupler" "$@" "$src" -o "$dir/bin/$pass/$name.dd.cu" -- "${inc[@]}" \
      2>"$dir/bin/$pass/$name.remarks.txt"
    "$nvcc" -arch=sm_90 -O3 -std=c++17 -I "$root/runtime/include" "${inc[@]}" \
      "$src" -o "$dir/bin/$pass/$name"
    "$nvcc" -arch=sm_90 -O3 -std=c++17 -I "$root/runtime/include" "${inc[@]}" \
      "$dir/bin/$pass/$name.dd.cu" -o "$dir/bin/$pass/${name}_dd"
  done
}

run() {
  local out=${OUT:-.} passed=0 failed=0
  suite() { # NAME COMMAND...
    local name=$1
    shift
    if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then
      return
    fi
    if "$@" >"$out/$name.log" 2>&1; then
      passed=$((passed + 1))
      echo "PASS $name: $(grep -E 'passed, [0-9]+ failed' "$out/$name.log" | tail -1)"
    else
      failed=$((failed + 1))
      echo "FAIL $name: $(tail -3 "$out/$name.log" | tr '\n' ' ')"
    fi
  }
  nvidia-smi -L
  suite atomics_test "$dir/bin/atomics_test"
  suite channel_stress timeout -k 5 175 "$dir/bin/channel_stress" --budget 140
  # The watchdog is per configuration: nested/cf32 with fitted servers takes
  # 12-14 s on an H200 and over 20 s on an H100 (the default watchdog).
  suite delegate_test timeout -k 5 240 "$dir/bin/delegate_test" --timeout 60
  suite delegate_bench timeout -k 5 60 "$dir/bin/delegate_bench" --quick
  suite examples "$dir/examples-differential.sh" "$dir/bin" "$dir/graphs"
  suite split "$dir/lit-programs-differential.sh" "$dir/bin/split" DD_SPLIT_POLICY split
  suite atomics "$dir/lit-programs-differential.sh" "$dir/bin/atomics" DD_PRIVATIZE_POLICY privatize
  suite delegate "$dir/lit-programs-differential.sh" "$dir/bin/delegate" DD_DELEGATE_POLICY delegate
  suite sssp "$dir/sssp-verify.sh" "$dir/bin" "$dir/graphs"
  suite mst "$dir/mst-verify.sh" "$dir/bin" "$dir/graphs"
  suite maxflow "$dir/maxflow-verify.sh" "$dir/bin"
  suite sp "$dir/sp-verify.sh" "$dir/bin"
  suite dmr env DMR_LSHAPE="$dir/graphs/L" "$dir/dmr-verify.sh" "$dir/bin"
  suite racecheck "$dir/racecheck.sh" "$dir/bin/lineinfo" "$dir/runtime"
  suite adds "$dir/adds-stress.sh" "$dir/bin" "${TMPDIR:-/tmp}/adds-stress" "$dir/graphs"
  echo "gpu-proof: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

case "$cmd" in
  pack) pack ;;
  run)
    shift $(($# < 2 ? $# : 2))
    only=("$@")
    run
    ;;
  *)
    echo "usage: scripts/gpu-proof.sh pack|run [DIR]" >&2
    exit 2
    ;;
esac
