#!/usr/bin/env bash
# Differential test of the examples on a GPU: each example runs as written and
# as rewritten by decoupler (<name>_dd) on the same inputs, and the outputs
# must be identical byte for byte (the examples compute in integers, so any
# order of atomic updates gives the same result). SSSP is also checked against
# CPU Dijkstra by the program itself (--verify 1).
#
#   test/gpu/examples-differential.sh BIN_DIR GRAPH_DIR
# BIN_DIR holds histogram, histogram_dd, spmv_coo, spmv_coo_dd, sssp_topology,
# sssp_topology_dd; GRAPH_DIR holds chesapeake.mtx, wiki-Vote.txt,
# luxembourg_osm.edges and any *.gr files (generated with dd-graph).
# Prints one line per case and ends with "N passed, N failed".
set -u
bin=${1:?usage: examples-differential.sh BIN_DIR GRAPH_DIR}
graphs=${2:?usage: examples-differential.sh BIN_DIR GRAPH_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# run NAME ARGS...: runs $bin/NAME and $bin/NAME_dd with ARGS, compares.
run() {
  local name=$1
  shift
  local label="$name $*"
  if ! "$bin/$name" "$@" >"$work/orig" 2>"$work/orig.err"; then
    echo "FAIL $label: original exited with $? ($(tail -1 "$work/orig.err"))"
    failed=$((failed + 1))
    return
  fi
  if ! "$bin/${name}_dd" "$@" >"$work/dd" 2>"$work/dd.err"; then
    echo "FAIL $label: rewritten exited with $? ($(tail -1 "$work/dd.err"))"
    failed=$((failed + 1))
    return
  fi
  if ! cmp -s "$work/orig" "$work/dd"; then
    echo "FAIL $label: outputs differ ($(diff "$work/orig" "$work/dd" | head -3 | tr '\n' ' '))"
    failed=$((failed + 1))
    return
  fi
  echo "PASS $label"
  passed=$((passed + 1))
}

# Histogram: every contention level, both distributions, odd block sizes.
for bins in 1 2 8 32 256 4096 65536; do
  for dist in uniform zipf; do
    for block in 96 256 1024; do
      for keys in 12345 1048576; do
        run histogram --bins $bins --dist $dist --block $block --keys $keys --seed $((bins + block))
      done
    done
  done
done
run histogram --bins 7 --block 33 --keys 100003 --grid 5 --seed 9

# SpMV COO and SSSP on the real graphs and the generated ones.
graph_args=(
  "$graphs/chesapeake.mtx"
  "$graphs/wiki-Vote.txt"
  "--base 1 $graphs/luxembourg_osm.edges"
)
for g in "$graphs"/*.gr; do
  [ -e "$g" ] && graph_args+=("$g")
done
for g in "${graph_args[@]}"; do
  for seed in 1 2 3; do
    for block in 128 1000; do
      # shellcheck disable=SC2086
      run spmv_coo --seed $seed --block $block $g
    done
  done
  for src in 0 1 17; do
    # shellcheck disable=SC2086
    run sssp_topology --src $src --seed $src --block 256 $g
  done
done
# Undirected road network: symmetric weights.
run sssp_topology --src 5 --base 1 --symmetrize 1 "$graphs/luxembourg_osm.edges"

echo "examples-differential: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
