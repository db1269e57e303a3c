#!/usr/bin/env bash
# The delegate pass on the dissertation's lock-based applications (issue 16):
# each program as written (global try-locks) against the same source
# rewritten by the pass, in one run on one GPU, every result verified.
#
#   bench/apps/run.sh BIN_DIR WORK_DIR
#
# BIN_DIR holds dd-mst, dd-sgd, dd-maxflow and dd-graph; inputs are generated into
# WORK_DIR (an existing file is reused). Per input and program, three ways:
#   written    --algo=locks (the kernel as written)
#   shipped    --algo=delegate, the launcher as shipped (DD_DELEGATE_POLICY
#              unset: adaptive, it measures both ways and runs the faster)
#   delegated  --algo=delegate with DD_DELEGATE_POLICY=delegate (always
#              delegated)
# Each is run with --verify (MST: the forest spans and weighs what Kruskal's
# does; SGD: no update lost, RMSE within 1% of the CPU's; MaxFlow: a
# feasible flow, no residual path left, the value its cut's capacity and
# Dinic's; on the full-size meshes the cut alone) and --runs=R
# (default APPS_RUNS=5; one untimed warm-up first); the time is the median
# of the program's own CUDA-event timing of its GPU part. The table gives
# ms and the ratios written/shipped and written/delegated (> 1: the rewrite
# is faster), and the geometric means of those ratios over the rows.
# APPS_INPUTS selects rows by name (default: all but the full-size meshes
# and the dissertation's full-size MST graphs, which run only when named).
# APPS_WRITTEN_LIMIT=S stops an MST run of the kernel as written after S
# seconds (dd-mst --time-limit): its row then shows a lower bound, "> T"
# ms and "> R" for the ratios, and a geometric mean over it is ">=". APPS_WAYS (default "written shipped
# delegated") drops columns: the always-delegated push is 3-4x slower on the
# meshes.
#
# APPS_PAIRS=K (default 1) runs each row's ways in turn K times, a fresh
# process each, and reports per way the median of the K medians and per
# ratio the median of the K ratios of one turn's processes. Use it where
# processes differ more than the ways do (MaxFlow: 10-20 % from one process
# to the next, the kernel as written too): a ratio of neighbouring
# processes cancels what drifts in between, a ratio of two single runs
# does not. MaxFlow's ways differ by less than even paired processes
# resolve: dd-maxflow-turns (built beside dd-maxflow; docs/maxflow.md) runs
# them in turns in one process and gives the ratios with 95 % intervals.
set -u
bin=${1:?usage: run.sh BIN_DIR WORK_DIR}
work=${2:?usage: run.sh BIN_DIR WORK_DIR}
runs=${APPS_RUNS:-5}
pairs=${APPS_PAIRS:-1}
timeout_s=${APPS_TIMEOUT:-300}
mkdir -p "$work"
log=$work/log
: >"$log"

# gen FILE ARGS...: dd-graph generate ARGS -o FILE, unless FILE exists.
gen() {
  local file=$1
  shift
  [[ -s $file ]] && return 0
  "$bin/dd-graph" generate "$@" -o "$file" >>"$log" 2>&1
}

# time_of PROGRAM ENV ARGS...: the median time_ms of a verified run, FAIL,
# or ">T" for a run dd-mst stopped at its --time-limit (a lower bound).
time_of() {
  local prog=$1 env=$2
  shift 2
  local out rc
  out=$(env $env timeout -k 10 "$timeout_s" "$bin/$prog" --verify --runs="$runs" "$@" 2>>"$log")
  rc=$?
  echo "$out" >>"$log"
  if [[ $rc -eq 3 ]] && grep -q '^unfinished time_ms' <<<"$out"; then
    echo ">$(tail -n 1 <<<"$out" | sed -n 's/^unfinished time_ms \([0-9.]*\).*/\1/p')"
    return
  fi
  if [[ $rc -ne 0 ]]; then
    echo "FAIL"
    return
  fi
  echo "$out" | tail -n 1 | sed -n 's/.*time_ms \([0-9.]*\).*/\1/p'
}

# example_time BINARY ENV ARGS...: the median time_ms= of an example
# (examples/: hashtable is HT, bank is ATM), checked by the example itself.
example_time() {
  local prog=$1 env=$2
  shift 2
  local out
  if ! out=$(env $env timeout -k 10 "$timeout_s" "$bin/$prog" --verify 1 --time "$runs" "$@" 2>>"$log") ||
    ! grep -q "verify: ok" <<<"$out"; then
    echo "FAIL"
    return
  fi
  echo "$out" >>"$log"
  sed -n 's/^time_ms=\([0-9.]*\).*/\1/p' <<<"$out"
}

# want NAME: whether row NAME is selected (APPS_INPUTS).
want() {
  [[ -z ${APPS_INPUTS:-} || " $APPS_INPUTS " == *" $1 "* ]]
}

# median VALUES...: their median, FAIL if any is FAIL, "-" if none. A value
# ">T" is a lower bound: the median of the numbers is then one too (">M").
median() {
  (($# == 0)) && { echo -; return; }
  local v bound=
  for v; do
    [[ $v == FAIL || -z $v ]] && { echo FAIL; return; }
    [[ $v == '>'* ]] && bound='>'
  done
  printf '%s\n' "${@#>}" | sort -g | awk -v b="$bound" '{ v[NR] = $1 } END { print b ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# ratios A B: "a1 b1 a2 b2 ..." (turn by turn) -> the median of a_k / b_k,
# "-" when a turn failed or a way did not run.
ratios() {
  local -n a=$1 b=$2
  ((${#a[@]} == 0 || ${#b[@]} == 0)) && { echo -; return; }
  local k r=()
  for ((k = 0; k < ${#a[@]}; ++k)); do
    [[ ${a[k]} == FAIL || ${b[k]} == FAIL || -z ${a[k]} || -z ${b[k]} ]] && { echo -; return; }
    # A bound in the denominator bounds nothing.
    [[ ${b[k]} == '>'* ]] && { echo -; return; }
    local lower=
    [[ ${a[k]} == '>'* ]] && lower='>'
    r+=("$lower$(awk -v x="${a[k]#>}" -v y="${b[k]}" 'BEGIN { print (y > 0) ? x / y : "FAIL" }')")
  done
  median "${r[@]}"
}

# add_row NAME PROG: the row from arrays w, s and d (one entry per turn).
add_row() {
  rows+=("$1|$2|$(median "${w[@]}")|$(median "${s[@]}")|$(median "${d[@]}")|$(ratios w s)|$(ratios w d)")
  echo "$1 $2 written=${w[*]:--} shipped=${s[*]:--} delegated=${d[*]:--}" >&2
}

rows=()
example_row() {
  local name=$1 prog=$2
  shift 2
  want "$name" || return 0
  echo "== $name ($prog $*)" >>"$log"
  local w=() s=() d=() k
  for ((k = 0; k < pairs; ++k)); do
    w+=("$(example_time "$prog" "" "$@")")
    s+=("$(example_time "${prog}_dd" "" "$@")")
    d+=("$(example_time "${prog}_dd" "DD_DELEGATE_POLICY=delegate" "$@")")
  done
  add_row "$name" "$prog"
}

ways=" ${APPS_WAYS:-written shipped delegated} "

# way NAME: whether column NAME is selected (APPS_WAYS).
way() {
  [[ $ways == *" $1 "* ]]
}

# named NAME: whether APPS_INPUTS names row NAME (rows too long for the
# default run).
named() {
  [[ " ${APPS_INPUTS:-} " == *" $1 "* ]]
}

# written_limit PROG: dd-mst's --time-limit for the kernel as written, from
# APPS_WRITTEN_LIMIT (seconds; empty: none).
written_limit() {
  [[ $1 == dd-mst && -n ${APPS_WRITTEN_LIMIT:-} ]] && echo "--time-limit=$((APPS_WRITTEN_LIMIT * 1000))"
}

row() {
  local name=$1 prog=$2
  shift 2
  want "$name" || return 0
  echo "== $name ($prog $*)" >>"$log"
  local w=() s=() d=() k
  for ((k = 0; k < pairs; ++k)); do
    way written && w+=("$(time_of "$prog" "" --algo=locks $(written_limit "$prog") "$@")")
    way shipped && s+=("$(time_of "$prog" "" --algo=delegate "$@")")
    way delegated && d+=("$(time_of "$prog" "DD_DELEGATE_POLICY=delegate" --algo=delegate "$@")")
  done
  add_row "$name" "$prog"
}

# HT and ATM (the dissertation's microbenchmarks, at its four collision
# factors 256, 1K, 32K and 128K; BIN_DIR also holds the examples hashtable,
# bank and their _dd). ATM at 256 and 1K accounts runs 32768 transfers: the
# kernel as written did not finish 262144 at 256 accounts in 60 s.
if [[ -x $bin/hashtable && -x $bin/bank ]]; then
  example_row ht-256 hashtable --cf 256 --keys 1048576
  example_row ht-1k hashtable --cf 1024 --keys 1048576
  example_row ht-32k hashtable --cf 32768 --keys 1048576
  example_row ht-128k hashtable --cf 131072 --keys 1048576
  example_row atm-256 bank --accounts 256 --transfers 32768
  example_row atm-1k bank --accounts 1024 --transfers 32768
  example_row atm-32k bank --accounts 32768 --transfers 262144
  example_row atm-128k bank --accounts 131072 --transfers 262144
fi

# MST (the dissertation: rmat22, USA-road-d.USA, r4-2e23; scaled to what a
# 10-minute call generates, verifies and runs three ways).
want kron18 && gen "$work/kron18.gr" kron --scale=18 --seed=1
want grid1024 && gen "$work/grid1024.gr" grid --rows=1024 --cols=1024 --seed=1
want urand20 && gen "$work/urand20.gr" uniform --vertices=1048576 --edges=4194304 --undirected --seed=1
# Road networks shaped like USA-road-d (dd-graph generate road: 2.44 arcs
# per vertex, the roads' lengths as weights), and a larger Kronecker graph.
want road20 && gen "$work/road20.gr" road --vertices=1048576 --seed=1
want road22 && gen "$work/road22.gr" road --vertices=4194304 --seed=1
want kron20 && gen "$work/kron20.gr" kron --scale=20 --seed=1
row kron18 dd-mst "$work/kron18.gr"
row kron20 dd-mst "$work/kron20.gr"
row grid1024 dd-mst "$work/grid1024.gr"
row road20 dd-mst "$work/road20.gr"
row road22 dd-mst "$work/road22.gr"
row urand20 dd-mst "$work/urand20.gr"
# The dissertation's three MST inputs at their sizes, only when APPS_INPUTS
# names them: rmat22 (a Kronecker graph of 2^22 vertices, 16 edges each),
# r4-2e23 (2^23 vertices, 4 edges each, uniform) and a road network of
# USA-road-d.USA's 23,947,347 vertices. The kernel as written takes minutes
# a run on the first two: APPS_WRITTEN_LIMIT=S stops it after S seconds and
# the row gives a lower bound (">").
named rmat22 && gen "$work/rmat22.gr" kron --scale=22 --seed=1
named r4-2e23 && gen "$work/r4-2e23.gr" uniform --vertices=8388608 --edges=33554432 --undirected --seed=1
named usa-road && gen "$work/usa-road.gr" road --vertices=23947347 --seed=1
for big in rmat22 r4-2e23 usa-road; do
  named "$big" && row "$big" dd-mst "$work/$big.gr"
done

# SGD (the dissertation: Netflix, MovieLens-10M; here their shapes at 2M
# ratings and their densities, about 1.3%, and MovieLens-10M's shape at its
# full size, 72K x 10.7K, 10M ratings).
want ml2m && gen "$work/ml2m.mtx" ratings --users=32000 --items=4800 --ratings=2000000 --shape=movielens --seed=1
want nf2m && gen "$work/nf2m.mtx" ratings --users=96000 --items=1770 --ratings=2000000 --shape=netflix --seed=1
want ml10m && gen "$work/ml10m.mtx" ratings --users=72000 --items=10700 --ratings=10000000 --shape=movielens --seed=1
row ml2m dd-sgd --epochs=5 "$work/ml2m.mtx"
row nf2m dd-sgd --epochs=5 "$work/nf2m.mtx"
row ml10m dd-sgd --epochs=3 "$work/ml10m.mtx"

# MaxFlow (the dissertation: 2k x 2k, 4k x 4k and 8k x 4k meshes; by default
# Washington RLG meshes to 512 x 512, which --verify also checks against
# Dinic's on the CPU, about 16 s at 512 x 512 on a 2-core machine).
want rlg256 && gen "$work/rlg256.max" rlg --rows=256 --cols=256 --seed=1
want rlg512 && gen "$work/rlg512.max" rlg --rows=512 --cols=512 --seed=1
want rlg64x2048 && gen "$work/rlg64x2048.max" rlg --rows=64 --cols=2048 --seed=1
row rlg256 dd-maxflow "$work/rlg256.max"
row rlg512 dd-maxflow "$work/rlg512.max"
row rlg64x2048 dd-maxflow "$work/rlg64x2048.max"
# The dissertation's three meshes at full size (rows x levels; "8k x 4k" is
# 8192 rows of 4096 levels), only when APPS_INPUTS names them: generated
# here (0.3-2 GB of text each), verified by the max-flow min-cut
# certificate (--reference=cut) instead of Dinic's, which would take hours.
# APPS_WARMUP=0 drops the untimed warm-up run (minutes at 4096 x 4096).
for mesh in rlg2k:2048:2048 rlg4k:4096:4096 rlg8kx4k:8192:4096; do
  IFS=: read -r name r c <<<"$mesh"
  named "$name" || continue
  gen "$work/$name.max" rlg --rows="$r" --cols="$c" --seed=1
  row "$name" dd-maxflow --reference=cut --warmup="${APPS_WARMUP:-1}" "$work/$name.max"
done

echo "| input | program | written ms | shipped ms | delegated ms | written/shipped | written/delegated |"
echo "|---|---|---:|---:|---:|---:|---:|"
awk -F'|' '
  # A ">" value is a lower bound; a geometric mean over one is one too.
  function num(x) { sub(/^>/, "", x); return x + 0 }
  function ok(x) { return x != "" && x != "FAIL" && x != "-" && num(x) > 0 }
  function show(x) { return ok(x) ? sprintf("%s%.2fx", (x ~ /^>/) ? "> " : "", num(x)) : "-" }
  function ms(x) { return (x ~ /^>/) ? "> " substr(x, 2) : x }
  {
    if (ok($6)) { g1 += log(num($6)); n1++; b1 = b1 || $6 ~ /^>/ }
    if (ok($7)) { g2 += log(num($7)); n2++; b2 = b2 || $7 ~ /^>/ }
    printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, ms($3), ms($4), ms($5), show($6), show($7)
  }
  END {
    line = ""
    if (n1) line = sprintf("written/shipped %s%.2fx over %d rows", b1 ? ">= " : "", exp(g1 / n1), n1)
    if (n2) line = line (n1 ? "; " : "") sprintf("written/delegated %s%.2fx over %d rows", b2 ? ">= " : "", exp(g2 / n2), n2)
    if (line != "") printf "\ngeomean %s\n", line
  }' < <(printf '%s\n' "${rows[@]}")
