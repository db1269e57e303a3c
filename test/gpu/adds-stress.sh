#!/usr/bin/env bash
# GPU stress test of dd-sssp --algo=adds: every run --verify'd exactly
# against CPU Dijkstra, on generated graphs of every shape the manager must
# cope with and under settings that push it to its corners:
#   default                 run-time delta, all worker blocks
#   --adds-delta=1          a bucket per distance: clipping, a head switch
#                           per distance step, thousands of them
#   --adds-delta=2^30       everything in the head bucket (Bellman-Ford order)
#   --adds-workers=1 / 3    fewer worker blocks than fit (one block has to
#                           drain everything it pushes itself)
#   --adds-pool=128         the smallest pool (blocks recycled constantly)
#   --adds-precheck=on/off  the relaxation path the graph's shape does not
#                           choose (auto picks one per graph)
# Graphs (generated into WORK_DIR by dd-graph, seeded): Kronecker 14 and 17
# (hubs), uniform random 2^16 x 16, road-like grids 64^2 and 1024^2, a
# 1 x 20000 chain (20000 hops: deep, one vertex wide), weights 1..255, 1..1
# (all equal: many ties) and 0..2 (zero weights), weights up to 2^31 - 1
# (uint64 distances), directed uniform and grid graphs, plus every graph of
# REAL_GRAPH_DIR.
#
#   test/gpu/adds-stress.sh BIN_DIR WORK_DIR [REAL_GRAPH_DIR]
#
# Each run is limited to DD_GPU_TEST_TIMEOUT seconds (default 60); after
# DD_GPU_TEST_MAX_FAILS failures (default: no limit) the rest is skipped. Prints
# one line per run and "N passed, N failed"; exit status 1 when any failed.
set -u
bin=${1:?usage: adds-stress.sh BIN_DIR WORK_DIR [REAL_GRAPH_DIR]}
work=${2:?usage: adds-stress.sh BIN_DIR WORK_DIR [REAL_GRAPH_DIR]}
real=${3:-}
timeout_s=${DD_GPU_TEST_TIMEOUT:-60}
max_fails=${DD_GPU_TEST_MAX_FAILS:-0}
mkdir -p "$work"
passed=0
failed=0

gen() { # NAME ARGS...: generate WORK_DIR/NAME.gr once
  local name=$1
  shift
  [[ -f $work/$name.gr ]] || "$bin/dd-graph" generate "$@" --seed=7 -o "$work/$name.gr" >/dev/null
}
gen kron14 kron --scale=14
gen kron17 kron --scale=17
gen urand16 uniform --vertices=65536 --edges=1048576 --undirected
gen grid64 grid --rows=64 --cols=64
gen grid1024 grid --rows=1024 --cols=1024
gen chain20k grid --rows=1 --cols=20000 --remove=0 --shortcuts=0
gen grid256-unit grid --rows=256 --cols=256 --weight-range=1,1
gen kron14-unit kron --scale=14 --weight-range=1,1
gen kron10-w0 kron --scale=10 --weight-range=0,2
gen grid64-wide grid --rows=64 --cols=64 --weight-range=1000000,2147483647
gen urand14-directed uniform --vertices=16384 --edges=262144
gen grid300x200-directed grid --rows=300 --cols=200 --directed

check() { # LABEL ARGS...: one verified run
  local label=$1
  shift
  local out
  out=$(timeout -k 5 "$timeout_s" "$bin/dd-sssp" --algo=adds --verify "$@" 2>&1)
  local rc=$?
  if [[ $rc -eq 0 ]] && grep -q '^dd-sssp: verified:' <<<"$out"; then
    echo "PASS $label ($(sed -n 's/^dd-sssp: .* ms=\([^ ]*\).*/\1/p' <<<"$out") ms;" \
      "$(sed -n 's/^dd-sssp: adds: //p' <<<"$out"))"
    passed=$((passed + 1))
  else
    [[ $rc -eq 124 || $rc -eq 137 ]] && echo "  (timed out after ${timeout_s}s)"
    echo "FAIL $label: exit $rc: $(tail -n 1 <<<"$out")"
    failed=$((failed + 1))
    if [[ $max_fails -gt 0 && $failed -ge $max_fails ]]; then
      echo "stopping after $failed failures; $passed passed"
      exit 1
    fi
  fi
}

settings=("" "--adds-delta=1" "--adds-delta=1073741824" "--adds-workers=1"
          "--adds-workers=3" "--adds-pool=128" "--adds-precheck=on" "--adds-precheck=off")
graphs=("$work"/*.gr)
opts_of() { [[ $1 == *.edges ]] && echo "--base 1 --symmetrize"; }
if [[ -n $real ]]; then
  for f in "$real"/*.mtx "$real"/*.txt "$real"/*.edges; do
    [[ -f $f && $(basename "$f") != README* ]] && graphs+=("$f")
  done
fi
for graph in "${graphs[@]}"; do
  name=$(basename "$graph")
  # shellcheck disable=SC2207
  opts=($(opts_of "$graph"))
  for setting in "${settings[@]}"; do
    # The slowest corners only on the small graphs.
    if [[ $setting == --adds-workers=1 || $setting == --adds-delta=1 ]] &&
       [[ $name == kron17* || $name == grid1024* || $name == luxembourg* || $name == chain* ]]; then
      continue
    fi
    for src in 0 1; do
      # shellcheck disable=SC2086
      check "$name src=$src ${setting:-default}" --src=$src "${opts[@]}" $setting "$graph"
    done
  done
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
