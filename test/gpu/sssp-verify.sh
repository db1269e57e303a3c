#!/usr/bin/env bash
# GPU test of dd-sssp: every algorithm, with --verify (exact comparison with
# CPU Dijkstra, or CPU BFS for bfs and bfs-adds), on every graph of a folder, from
# several sources. Run on the GPU machine:
#
#   test/gpu/sssp-verify.sh BIN_DIR GRAPH_DIR
#
# BIN_DIR holds dd-sssp. GRAPH_DIR holds graphs (*.gr *.mtx *.txt *.el
# *.edges *.snap); *.edges files are read as luxembourg_osm.edges must be,
# with --base 1 --symmetrize (one 1-based line per undirected edge). Graphs
# without weights get dd-sssp's seeded weights in [1, 255].
# Sources: 0, the middle and the last vertex, and the vertex of 0..15 that
# reaches the most vertices (so that every graph also gets a deep search).
# Each run is limited to DD_GPU_TEST_TIMEOUT seconds (default 120: a hang
# must not eat the lease). Prints one line per run and "N passed, N failed";
# exit status 1 when any failed.
set -u
bin=${1:?usage: sssp-verify.sh BIN_DIR GRAPH_DIR}
graphs=${2:?usage: sssp-verify.sh BIN_DIR GRAPH_DIR}
timeout_s=${DD_GPU_TEST_TIMEOUT:-120}
# nearfar runs its steps in one launch where the graph has no hubs (auto);
# nearfar:host forces a launch per step (--nearfar-steps=host) everywhere;
# ALGO+S runs the load-balancing strategy S (--lb=S); bfs runs the
# direction-optimizing switch, bfs/top-down every level top-down
# (--bfs-direction=top-down).
algos=${SSSP_VERIFY_ALGOS:-"adds nearfar nearfar:host bf-worklist bf-topo bfs bfs/top-down bfs-adds dijkstra
  nearfar+warp nearfar+scan nearfar+search nearfar:host+warp4 bf-worklist+warp32
  bf-worklist+scan bf-worklist+search adds+twc adds+warp adds+scan bfs-adds+warp8 bfs-adds+scan
  bfs+warp bfs+scan bfs/top-down+scan"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# The value of KEY in dd-sssp's "key=value" line on standard input.
field() { sed -n "s/^dd-sssp: .* $1=\([^ ]*\).*/\1/p"; }

shopt -s nullglob
for graph in "$graphs"/*.gr "$graphs"/*.mtx "$graphs"/*.txt "$graphs"/*.el \
             "$graphs"/*.edges "$graphs"/*.snap; do
  name=$(basename "$graph")
  opts=()
  [[ $graph == *.edges ]] && opts=(--base 1 --symmetrize)
  # The reach of candidate sources, by the CPU reference (no GPU start-up).
  best=0 best_reached=-1 n=0
  for s in $(seq 0 15); do
    line=$("$bin/dd-sssp" --algo=dijkstra --src=$s "${opts[@]}" "$graph" 2>&1) || break
    n=$(field vertices <<<"$line")
    reached=$(field reached <<<"$line")
    if (( reached > best_reached )); then best=$s best_reached=$reached; fi
  done
  if (( n == 0 )); then
    echo "FAIL $name: cannot read it ($line)"
    failed=$((failed + 1))
    continue
  fi
  sources=$(printf '%s\n' 0 $((n / 2)) $((n - 1)) "$best" | sort -un)
  for entry in $algos; do
    base=${entry%%+*}
    extra=()
    [[ $base == */* ]] && extra+=(--bfs-direction="${base#*/}")
    base=${base%%/*}
    algo=${base%%:*}
    [[ $base == *:* ]] && extra+=(--nearfar-steps="${base#*:}")
    [[ $entry == *+* ]] && extra+=(--lb="${entry#*+}")
    for s in $sources; do
      label="$name --algo=$algo ${extra[*]} --src=$s"
      timeout -k 10 "$timeout_s" "$bin/dd-sssp" --algo=$algo "${extra[@]}" --src=$s "${opts[@]}" \
        --verify "$graph" >"$work/out" 2>"$work/err"
      rc=$?
      if [[ $rc -eq 0 ]] && grep -q '^dd-sssp: verified:' "$work/err"; then
        echo "PASS $label ($(field reached <"$work/err") reached, $(field ms <"$work/err") ms," \
          "$(field distances <"$work/err"))"
        passed=$((passed + 1))
      else
        [[ $rc -eq 124 || $rc -eq 137 ]] && echo "  (timed out after ${timeout_s}s)"
        echo "FAIL $label: exit $rc: $(tail -n 1 "$work/err")"
        failed=$((failed + 1))
      fi
    done
  done
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
