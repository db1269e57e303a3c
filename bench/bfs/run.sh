#!/usr/bin/env bash
# BFS in one run: dd-sssp --algo=bfs with the direction-optimizing switch
# (auto) and every level top-down, and optionally a peer BFS (Gunrock's,
# built separately: docs/PERF.md says which commit and how), on the same
# graphs from the same source. Run on the GPU machine:
#
#   bench/bfs/run.sh BIN_DIR WORK_DIR [GUNROCK_BFS]
#
# BIN_DIR holds dd-sssp and dd-graph. Graphs are generated into WORK_DIR as
# bench/sssp/run.sh makes them (kronK, urandK, gridN; luxembourg and
# wiki-Vote from BFS_REAL, default ../shared/data/graphs). GUNROCK_BFS is
# Gunrock's `bfs` example binary; it reads only Matrix Market, so each graph
# is also written with `dd-graph convert --to-mtx` (every arc, 1-based,
# `general`: the same arcs dd-sssp reads). The
# source: of vertices 0..15, the one whose BFS reaches the most. Every dd
# run is --verify'd against CPU BFS; Gunrock's is --validate'd (its own CPU
# BFS). Times: dd-sssp's median of BFS_RUNS (default 9) after a warm-up;
# Gunrock's median of its BFS_RUNS process times (its first run, which
# carries first-launch costs, is dropped). MTEPS: the edges of the searched
# component (dd-sssp's `traversed`) over the median time, for both.
#
# Environment: BFS_GRAPHS (default "kron18 kron20 kron22 urand18 urand20
# urand22 grid1024 luxembourg wiki-Vote"), BFS_RUNS, BFS_REAL.
set -u
bin=${1:?usage: run.sh BIN_DIR WORK_DIR [GUNROCK_BFS]}
work=${2:?usage: run.sh BIN_DIR WORK_DIR [GUNROCK_BFS]}
gunrock=${3:-}
runs=${BFS_RUNS:-9}
real=${BFS_REAL:-$(dirname "$0")/../../../shared/data/graphs}
graphs=${BFS_GRAPHS:-"kron18 kron20 kron22 urand18 urand20 urand22 grid1024 luxembourg wiki-Vote"}
mkdir -p "$work"
log=$work/bfs-bench.log
: >"$log"

field() { sed -n "s/^dd-sssp: .* $1=\([^ ]*\).*/\1/p"; }

# gr NAME: the graph as a .gr without weights in $gr (generated once).
gr_of() {
  gr=$work/$1.gr
  [[ -f $gr ]] && return 0
  case $1 in
    kron*) "$bin/dd-graph" generate kron --scale=${1#kron} --seed=1 --weights=none -o "$gr" ;;
    urand*) local v=$((1 << ${1#urand}))
      "$bin/dd-graph" generate uniform --vertices=$v --edges=$((16 * v)) --undirected --seed=1 \
        --weights=none -o "$gr" ;;
    grid*) "$bin/dd-graph" generate grid --rows=${1#grid} --cols=${1#grid} --seed=1 \
        --weights=none -o "$gr" ;;
    luxembourg) "$bin/dd-graph" convert "$real/luxembourg_osm.edges" --base=1 --symmetrize \
        --weights=none --to-gr "$gr" ;;
    wiki-Vote) "$bin/dd-graph" convert "$real/wiki-Vote.txt" --weights=none --to-gr "$gr" ;;
    *) echo "unknown graph $1" >&2; return 1 ;;
  esac >>"$log" 2>&1
}

echo "| graph | vertices | edges | src | levels | bottom-up | dd auto ms | dd top-down ms | gunrock ms | dd auto MTEPS | dd top-down MTEPS | gunrock MTEPS | auto / top-down | dd auto / gunrock |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for g in $graphs; do
  echo "== $g" >&2
  if ! gr_of "$g"; then echo "| $g | generation failed (see $log) |"; continue; fi
  best=0 reach=-1
  for s in $(seq 0 15); do
    r=$("$bin/dd-sssp" --algo=bfs --src=$s "$gr" 2>&1 | field reached)
    (( ${r:-0} > reach )) && best=$s reach=$r
  done
  declare -A ms=() lines=()
  for d in auto top-down; do
    out=$(timeout -k 10 300 "$bin/dd-sssp" --algo=bfs --bfs-direction=$d --src=$best \
      --runs="$runs" --verify "$gr" 2>&1)
    echo "$out" >>"$log"
    if ! grep -q '^dd-sssp: verified:' <<<"$out"; then
      echo "FAIL $g $d: $(tail -n 1 <<<"$out")" >&2
      ms[$d]=FAIL
      continue
    fi
    lines[$d]=$(grep '^dd-sssp: algo=' <<<"$out")
    ms[$d]=$(field ms <<<"${lines[$d]}")
  done
  line=${lines[auto]:-${lines[top-down]:-}}
  traversed=$(field traversed <<<"$line")
  gms=-
  if [[ -n $gunrock ]]; then
    mtx=$work/$g.mtx
    [[ -f $mtx ]] || "$bin/dd-graph" convert "$gr" --to-mtx "$mtx" >>"$log" 2>&1
    rm -f "$work/gunrock_$g.json"
    if timeout -k 10 300 "$gunrock" -m "$mtx" -s $best -n $((runs + 1)) --validate \
        --export_metrics -d "$work" -f "gunrock_$g.json" >"$work/gunrock_$g.out" 2>&1 &&
       grep -q "Number of errors : 0\|errors: 0\|Number of errors: 0" "$work/gunrock_$g.out"; then
      gms=$(python3 -c "import json,statistics as s;t=json.load(open('$work/gunrock_$g.json'))['process_times'][1:];print('%.3f'%s.median(t))")
    else
      echo "FAIL $g gunrock: $(tail -n 2 "$work/gunrock_$g.out" | tr '\n' ' ')" >&2
      gms=FAIL
    fi
    cat "$work/gunrock_$g.out" >>"$log"
  fi
  mteps() { [[ $1 =~ ^[0-9.]+$ ]] && awk -v t="$traversed" -v m="$1" 'BEGIN{printf "%.0f", t/m/1000}' || echo -; }
  ratio() { [[ $1 =~ ^[0-9.]+$ && $2 =~ ^[0-9.]+$ ]] && awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2fx", b/a}' || echo -; }
  echo "| $g | $(field vertices <<<"$line") | $(field edges <<<"$line") | $best | $(field launches <<<"$line") | $(field bottom_up <<<"${lines[auto]:-}") | ${ms[auto]} | ${ms[top-down]} | $gms | $(mteps "${ms[auto]}") | $(mteps "${ms[top-down]}") | $(mteps "$gms") | $(ratio "${ms[auto]}" "${ms[top-down]}") | $(ratio "${ms[auto]}" "$gms") |"
  unset ms lines
done
