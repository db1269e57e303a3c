#!/usr/bin/env bash
# Survey propagation on the GPU (issue 17, docs/sp.md): the atomic baseline
# against the papers' monotone stores and the gather variant, in one run on
# one GPU, every result verified.
#
#   bench/sp/run.sh BIN_DIR WORK_DIR
#
# BIN_DIR holds dd-sp and dd-graph; random 3-SAT inputs (dd-graph generate
# 3sat) are generated into WORK_DIR (an existing file is reused). Per input,
# three ways of computing the rounds' products:
#   atomic       --algo=atomic: an atomicCAS multiply per factor (baseline)
#   atomic-free  --algo=atomic-free: the papers' monotone store
#   gather       --algo=gather: a thread per variable gathers its products
# (The pass column of the other benches is absent: neither annotation of
# the atomics pass applies to the baseline; docs/sp.md, "The pass".)
# Each is run with --verify and --runs=R (default SP_RUNS=1; one untimed
# warm-up first; a run is a whole solve, whose decimations run on the host,
# so the larger rows take minutes). The table gives, per way, sp_ms (the
# median run's time in survey rounds, CUDA events) and the rounds of that
# run (atomic-free also the products its rounds left short of a factor,
# dd-sp's inexact_products=), and the ratios atomic/atomic-free and
# atomic/gather of the time per round (> 1: faster than the baseline; per
# round because monotone stores that lose factors can take other numbers of
# rounds, which the rounds columns show), with their geometric means.
# SP_INPUTS selects rows by name (default: all).
set -u
bin=${1:?usage: run.sh BIN_DIR WORK_DIR}
work=${2:?usage: run.sh BIN_DIR WORK_DIR}
runs=${SP_RUNS:-1}
timeout_s=${SP_TIMEOUT:-600}
mkdir -p "$work"
log=$work/log
: >"$log"

# want NAME: whether row NAME is selected (SP_INPUTS).
want() {
  [[ -z ${SP_INPUTS:-} || " $SP_INPUTS " == *" $1 "* ]]
}

# measure ALGO FORMULA: "SP_MS ROUNDS INEXACT" of a verified run (INEXACT:
# dd-sp's inexact_products=, the products that lost a factor), or "FAIL - -".
measure() {
  local out err=$work/measure.err
  if ! out=$(timeout -k 10 "$timeout_s" "$bin/dd-sp" --algo="$1" --verify --runs="$runs" "$2" \
               2>"$err"); then
    cat "$err" >>"$log"
    echo "FAIL - -"
    return
  fi
  cat "$err" >>"$log"
  echo "$out" >>"$log"
  local inexact
  inexact=$(sed -n 's/.* inexact_products=\([0-9]*\).*/\1/p' "$err")
  echo "$(echo "$out" | tail -n 1 | sed -n 's/.* rounds \([0-9]*\) sp_ms \([0-9.]*\) .*/\2 \1/p') ${inexact:-?}"
}

rows=()
row() {
  local name=$1 vars=$2 ratio=$3 seed=$4
  want "$name" || return 0
  local file=$work/$name.cnf
  if [[ ! -s $file ]] &&
     ! "$bin/dd-graph" generate 3sat --vars="$vars" --ratio="$ratio" --seed="$seed" -o "$file" \
       >>"$log" 2>&1; then
    rows+=("$name|FAIL - -|FAIL - -|FAIL - -")
    return
  fi
  echo "== $name" >>"$log"
  rows+=("$name|$(measure atomic "$file")|$(measure atomic-free "$file")|$(measure gather "$file")")
}

row sat-100k-4.2 100000 4.2 1
row sat-500k-4.2 500000 4.2 2
row sat-1m-4.2 1000000 4.2 3
row sat-1m-3.0 1000000 3.0 4

if [[ ${#rows[@]} -eq 0 ]]; then
  echo "no rows selected (SP_INPUTS=${SP_INPUTS:-})"
  exit 1
fi

echo "| input | atomic ms (rounds) | atomic-free ms (rounds; products that lost a factor) | gather ms (rounds) | atomic/atomic-free per round | atomic/gather per round |"
echo "|---|---|---|---|---|---|"
awk -F'|' '
  function ok(x) { return x !~ /FAIL/ }
  function per(x) { split(x, p, " "); return p[2] > 0 ? p[1] / p[2] : 0 }
  function cell(x) { split(x, p, " "); return ok(x) ? sprintf("%s (%s)", p[1], p[2]) : "FAIL" }
  function cell3(x) { split(x, p, " "); return ok(x) ? sprintf("%s (%s; %s)", p[1], p[2], p[3]) : "FAIL" }
  {
    r1 = ok($2) && ok($3) && per($3) > 0 ? per($2) / per($3) : 0
    r2 = ok($2) && ok($4) && per($4) > 0 ? per($2) / per($4) : 0
    printf "| %s | %s | %s | %s | %s | %s |\n", $1, cell($2), cell3($3), cell($4),
           r1 ? sprintf("%.2fx", r1) : "-", r2 ? sprintf("%.2fx", r2) : "-"
    if (r1) { g1 += log(r1); n1++ }
    if (r2) { g2 += log(r2); n2++ }
  }
  END {
    if (n1) printf "\ngeomean atomic/atomic-free %.2fx over %d rows", exp(g1 / n1), n1
    if (n2) printf "; atomic/gather %.2fx over %d rows", exp(g2 / n2), n2
    if (n1 || n2) printf "\n"
  }' < <(printf '%s\n' "${rows[@]}")
