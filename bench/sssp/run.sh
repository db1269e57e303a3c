#!/usr/bin/env bash
# SSSP on the GPU machine: ADDS against near-far, bf-worklist, bf-topo and
# BFS and CPU Dijkstra, one markdown table row per graph.
#
#   bench/sssp/run.sh BIN_DIR WORK_DIR [REAL_GRAPH_DIR]
#
# BIN_DIR holds dd-sssp and dd-graph (dd-graph needs no GPU). The synthetic
# graphs are generated into WORK_DIR (once; an existing file is reused), all
# with --seed=1 and dd-graph's random weights in [1, 255]:
#   kronK   generate kron --scale=K (Graph500, undirected, 16 edges/vertex)
#   urandK  generate uniform --vertices=2^K --edges=16*2^K --undirected
#   gridN   generate grid --rows=N --cols=N (road-like, undirected)
#   roadK   generate road --vertices=2^K (shaped like DIMACS USA-road-d:
#           2.44 arcs per vertex, planar, the roads' lengths as weights;
#           not in the default list)
# REAL_GRAPH_DIR (default ../shared/data/graphs) supplies luxembourg_osm
# (--base 1 --symmetrize) and wiki-Vote (directed), with dd-sssp's seeded
# weights. SSSP_GRAPHS selects graphs (default: all below), SSSP_RUNS the
# timed runs per algorithm (default 5; each GPU algorithm runs once more
# untimed first).
#
# Per graph: the source is the vertex of 0..31 whose BFS reaches the most
# vertices (the first that reaches half of them). Every GPU result is
# verified exactly against CPU Dijkstra (bfs: CPU BFS); a failure shows as
# FAIL in the table. Columns: ms per algorithm (median, GPU time by CUDA
# events; Dijkstra: CPU time of dd::graph::dijkstra); ADDS's and near-far's
# MTEPS (out-edges of reached vertices / time); ADDS's final delta and
# near-far's delta and launches; work = vertices processed (edge lists
# scanned) / vertices reached, which is 1.00 for Dijkstra; the last three
# columns: near-far time / ADDS time, Dijkstra time / ADDS time and
# Dijkstra time / near-far time. A last line gives the geometric mean of
# near-far time / ADDS time over the graphs where both ran. A second table
# sets the two BFS apart: bfs (level-synchronous, a launch per level)
# against bfs-adds (asynchronous: the ADDS worklist with unit weights).
# SSSP_ALGOS selects the algorithms (default: all; the source search always
# uses bfs); nearfar-host is nearfar with --nearfar-steps=host (a launch per
# step; nearfar itself runs in one launch on graphs without hubs).
# A third table sets dd against the published codes of ../shared/peers
# (SSSP_PEERS, default ../shared/peers/bin; skipped where absent):
# LonestarGPU's near-far (sssp-nf-lonestar) and the ADDS authors' code
# (sssp-adds-orig, ADDS_ORIG_TB_CAP=131, cut after SSSP_PEER_TIMEOUT s,
# default 30), on a .gr of the same graph and weights from the same source;
# their times are the median of their runs 2..8 (their own timers), and
# their distances are compared with CPU Dijkstra's (check).
# SSSP_LB (default none) lists load-balancing strategies (--lb values): a
# fourth table gives the ms of each algorithm of SSSP_LB_ALGOS (default
# "nearfar bf-worklist"; adds, bfs-adds and bfs take every strategy but
# search) with each (verified), and the graph's mean, largest and standard
# deviation of out-degrees.
# Raw dd-sssp lines go to WORK_DIR/sssp-bench.log.
set -u
bin=${1:?usage: run.sh BIN_DIR WORK_DIR [REAL_GRAPH_DIR]}
workdir=${2:?usage: run.sh BIN_DIR WORK_DIR [REAL_GRAPH_DIR]}
real=${3:-$(dirname "$0")/../../../shared/data/graphs}
peers=${SSSP_PEERS:-$(dirname "$0")/../../../shared/peers/bin}
peer_timeout=${SSSP_PEER_TIMEOUT:-30}
runs=${SSSP_RUNS:-5}
graphs=${SSSP_GRAPHS:-"kron18 kron20 kron22 urand18 urand20 urand22 grid1024 grid2048 grid4096 luxembourg wiki-Vote"}
algos=${SSSP_ALGOS:-"dijkstra adds nearfar nearfar-host bf-worklist bf-topo bfs bfs-adds"}
balances=${SSSP_LB:-}
lb_algos=${SSSP_LB_ALGOS:-"nearfar bf-worklist"}
mkdir -p "$workdir"
log="$workdir/sssp-bench.log"
: >"$log"

# The value of KEY in dd-sssp's "key=value" line on standard input.
field() { sed -n "s/^dd-sssp: .* $1=\([^ ]*\).*/\1/p"; }

# prepare NAME: sets $file and $opts for a graph, generating it if needed.
prepare() {
  opts=()
  case $1 in
    kron*) file=$workdir/$1.gr
      [[ -f $file ]] || "$bin/dd-graph" generate kron --scale=${1#kron} --seed=1 -o "$file" ;;
    urand*) file=$workdir/$1.gr
      local v=$((1 << ${1#urand}))
      [[ -f $file ]] || "$bin/dd-graph" generate uniform --vertices=$v --edges=$((16 * v)) \
        --undirected --seed=1 -o "$file" ;;
    grid*) file=$workdir/$1.gr
      [[ -f $file ]] || "$bin/dd-graph" generate grid --rows=${1#grid} --cols=${1#grid} \
        --seed=1 -o "$file" ;;
    road*) file=$workdir/$1.gr
      [[ -f $file ]] || "$bin/dd-graph" generate road --vertices=$((1 << ${1#road})) \
        --seed=1 -o "$file" ;;
    luxembourg) file=$real/luxembourg_osm.edges; opts=(--base 1 --symmetrize) ;;
    wiki-Vote) file=$real/wiki-Vote.txt ;;
    *) echo "unknown graph $1" >&2; return 1 ;;
  esac
  [[ -f $file ]]
}

# run ALGO SRC [ARGS]: one dd-sssp run; sets $line (its key=value line) or
# prints the error and returns 1.
run() {
  local algo=$1 src=$2
  shift 2
  local err
  [[ $algo == nearfar-host ]] && algo=nearfar && set -- --nearfar-steps=host "$@"
  err=$(timeout -k 10 600 "$bin/dd-sssp" --algo=$algo --src=$src "${opts[@]}" "$@" "$file" 2>&1)
  local rc=$?
  echo "$err" >>"$log"
  line=$(grep '^dd-sssp: algo=' <<<"$err")
  if [[ $rc -ne 0 ]]; then
    echo "FAIL $(basename "$file") $algo src=$src: $(tail -n 1 <<<"$err")" >&2
    return 1
  fi
}

# gr_of NAME: a Galois .gr of the graph with dd-sssp's weights (the peers
# read only that), in $gr.
gr_of() {
  if [[ $file == *.gr ]]; then
    gr=$file
  else
    gr=$workdir/$1.gr
    [[ -f $gr ]] || "$bin/dd-graph" convert "$file" "${opts[@]}" --weights=random --to-gr "$gr" \
      >>"$log" 2>&1
  fi
  [[ -f $gr ]]
}

# peer KEY PATTERN CMD...: runs one peer (CMD, writing $workdir/peer.dist);
# sets peer_ms[KEY] to the median of its runs 2..8 (PATTERN: a sed
# expression printing one run's ms per line), or why there is none, and
# adds "KEY ok|FAIL" (its distances against Dijkstra's) to peer_check.
peer() {
  local key=$1 pattern=$2 rc=0
  shift 2
  if [[ ! -x $1 ]]; then
    peer_ms[$key]="absent"
    return
  fi
  timeout -k 5 "$peer_timeout" "$@" >"$workdir/peer.log" 2>&1 3>>"$workdir/peer.fd3" || rc=$?
  cat "$workdir/peer.log" >>"$log"
  if [[ $rc -ne 0 ]]; then
    [[ $rc -eq 124 || $rc -eq 137 ]] && peer_ms[$key]="timeout" || peer_ms[$key]="exit $rc"
    return
  fi
  peer_ms[$key]=$(sed -n "$pattern" "$workdir/peer.log" | tail -n +2 | median)
  peer_check+="$key $(same_distances "$workdir/peer.dist") "
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

# same_distances FILE: "ok" when FILE's "id distance" lines give Dijkstra's
# distance to every vertex Dijkstra reaches ($workdir/dijkstra.dist), and
# none below 10^9 (the peers' infinity) to the others.
same_distances() {
  awk 'NR == FNR { want[$1] = $2; next }
       { got = ($2 == "INF" || $2 + 0 >= 1000000000) ? "INF" : $2
         if (!($1 in want) || got != want[$1]) bad++; seen++ }
       END { print (bad || seen != length(want)) ? "FAIL" : "ok" }' "$workdir/dijkstra.dist" "$1"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b <= 0) print "-"; else printf "%.2f", a / b }'; }

rows=()
lb_rows=()
bfs_rows=()
peer_rows=()
speedups=()
for name in $graphs; do
  prepare "$name" || { echo "cannot prepare $name" >&2; continue; }
  # A source that reaches much of the graph (Kronecker graphs have many
  # isolated vertices; wiki-Vote has sinks).
  src=0 best=-1 n=0
  for s in $(seq 0 31); do
    run bfs $s || break
    n=$(field vertices <<<"$line") m=$(field edges <<<"$line")
    reached=$(field reached <<<"$line")
    if (( reached > best )); then src=$s best=$reached; fi
    (( 2 * reached >= n )) && break
  done
  (( n > 0 )) || continue
  declare -A ms=() work=() mteps=()
  for algo in $algos; do
    args=(--verify)
    [[ $algo != dijkstra ]] && args+=(--runs=$runs)
    if run $algo $src "${args[@]}"; then
      ms[$algo]=$(field ms <<<"$line")
      mteps[$algo]=$(field mteps <<<"$line")
      work[$algo]=$(ratio "$(field processed <<<"$line")" "$(field reached <<<"$line")")
      [[ $algo == nearfar ]] && delta=$(field delta <<<"$line") launches=$(field launches <<<"$line")
      [[ $algo == adds ]] && adds_delta=$(field delta <<<"$line")
      [[ $algo == bfs-adds ]] && bfs_delta=$(field delta <<<"$line") \
        bfs_wait=$(grep '^dd-sssp: adds:' "$log" | tail -n 1 | sed -n 's/.* wait=\([^ ]*\).*/\1/p')
    else
      ms[$algo]=FAIL
    fi
  done
  if [[ -d $peers ]] && gr_of "$name" &&
     run dijkstra "$src" --out="$workdir/dijkstra.dist"; then
    declare -A peer_ms=()
    peer_check=""
    peer nf 's/.* t \([0-9.]*\).*/\1/p' "$peers/sssp-nf-lonestar" -s "$src" \
      -o "$workdir/peer.dist" "$gr"
    ADDS_ORIG_TB_CAP=131 peer adds 's/.*ms=\([0-9.]*\).*/\1/p' "$peers/sssp-adds-orig" \
      -s "$src" -o "$workdir/peer.dist" "$gr"
    peer_rows+=("| $name | ${ms[nearfar]:--} | ${ms[nearfar-host]:--} | ${peer_ms[nf]} | $(ratio "${peer_ms[nf]}" "${ms[nearfar]:-}") | ${ms[adds]:--} | ${peer_ms[adds]} | $(ratio "${peer_ms[adds]}" "${ms[adds]:-}") | ${peer_check:--} |")
    echo "${peer_rows[-1]}" >&2
    unset peer_ms
  fi
  if [[ -n $balances ]]; then
    # "out-degree:  min 0, max 6, mean 3.82, stddev 0.50" (dd-graph info)
    degrees=$("$bin/dd-graph" info "${opts[@]}" "$file" 2>/dev/null |
      sed -n 's/^out-degree: *min [0-9]*, max \([0-9]*\), mean \([0-9.]*\), stddev \([0-9.]*\).*/\2 | \1 | \3/p')
    lb_row="| $name | ${degrees:-- | - | -} |"
    for algo in $lb_algos; do
      for balance in $balances; do
        if run $algo $src --lb=$balance --verify --runs=$runs; then
          lb_row+=" $(field ms <<<"$line") |"
        else
          lb_row+=" FAIL |"
        fi
      done
    done
    lb_rows+=("$lb_row")
    echo "$lb_row" >&2
  fi
  speedup=$(ratio "${ms[nearfar]:-}" "${ms[adds]:-}")
  [[ $speedup != - ]] && speedups+=("$speedup")
  rows+=("| $name | $n | $m | $src | $best | ${ms[dijkstra]:-} | ${ms[adds]:-} | ${ms[nearfar]:-} | ${ms[bf-worklist]:-} | ${ms[bf-topo]:-} | ${ms[bfs]:-} | ${mteps[adds]:--} / ${mteps[nearfar]:--} | ${adds_delta:--} / ${delta:--} / ${launches:--} | ${work[adds]:--} / ${work[nearfar]:--} / ${work[bf-worklist]:--} / ${work[bf-topo]:--} | $speedup | $(ratio "${ms[dijkstra]:-}" "${ms[adds]:-}") | $(ratio "${ms[dijkstra]:-}" "${ms[nearfar]:-}") |")
  echo "${rows[-1]}" >&2
  bfs_rows+=("| $name | $n | $m | $src | $best | ${ms[bfs]:--} | ${ms[bfs-adds]:--} | ${mteps[bfs]:--} / ${mteps[bfs-adds]:--} | ${bfs_delta:--} | ${bfs_wait:--} | ${work[bfs-adds]:--} | $(ratio "${ms[bfs]:-}" "${ms[bfs-adds]:-}") |")
  unset ms work mteps delta launches adds_delta bfs_delta bfs_wait
done

echo
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
echo "runs: $runs timed (median) after 1 warm-up; every GPU result verified against the CPU reference"
echo
echo "| graph | V | E | src | reached | Dijkstra (CPU) ms | adds ms | nearfar ms | bf-worklist ms | bf-topo ms | bfs ms | MTEPS adds / nf | delta adds / nf / nf launches | work adds / nf / bfw / bft | adds vs nf | adds vs Dijkstra | nf vs Dijkstra |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo
echo "geometric mean of adds vs nf (near-far time / ADDS time) over ${#speedups[@]} graphs:" \
  "$(printf '%s\n' "${speedups[@]}" | awk '{ s += log($1); n++ } END { if (n) printf "%.2f", exp(s / n); else print "-" }')"
echo
echo "| graph | V | E | src | reached | bfs ms | bfs-adds ms | MTEPS bfs / bfs-adds | bfs-adds delta | bfs-adds wait | work bfs-adds | bfs / bfs-adds |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${bfs_rows[@]}"
if [[ ${#lb_rows[@]} -gt 0 ]]; then
  echo
  echo "Load balancing (ms, median; nearfar with its default steps; adds and bfs-adds: hubs by the block with every strategy):"
  echo
  header="| graph | mean degree | max degree | degree stddev |"
  rule="|---|---:|---:|---:|"
  for algo in $lb_algos; do
    for balance in $balances; do
      header+=" $algo $balance |"
      rule+="---:|"
    done
  done
  echo "$header"
  echo "$rule"
  printf '%s\n' "${lb_rows[@]}"
fi
if [[ ${#peer_rows[@]} -gt 0 ]]; then
  echo
  echo "Against the published codes (ms; LS nf / dd nf and ADDS-orig / dd adds > 1: dd is faster):"
  echo
  echo "| graph | dd nearfar ms | dd nearfar-host ms | LS near-far ms | LS nf / dd nf | dd adds ms | ADDS-orig ms | ADDS-orig / dd adds | check (peers' distances) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
  printf '%s\n' "${peer_rows[@]}"
fi
