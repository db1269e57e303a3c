#!/usr/bin/env bash
# Survey propagation on the GPU (issue 17, docs/sp.md): the atomic baseline
# against the atomic-free gather variant, in one run on one GPU, every
# result verified.
#
#   bench/sp/run.sh BIN_DIR WORK_DIR
#
# BIN_DIR holds dd-sp and dd-graph; random 3-SAT inputs (dd-graph generate
# 3sat) are generated into WORK_DIR (an existing file is reused). Per input,
# two ways of computing the rounds' products:
#   atomic       --algo=atomic: an atomicCAS multiply per factor (baseline)
#   gather       --algo=gather: a thread per variable gathers its products
#                (atomic-free by synchronous processing)
# (The pass column of the other benches is absent: neither annotation of
# the atomics pass applies to the baseline; docs/sp.md, "The pass".)
# Each is run with --verify and --runs=R (default SP_RUNS=1; one untimed
# warm-up first; a run is a whole solve, whose decimations run on the host,
# so the larger rows take minutes). The table gives, per way, sp_ms (the
# median run's time in survey rounds, CUDA events) and the rounds of that
# run, and the ratio atomic/gather of the time per round (> 1: faster than
# the baseline; per round because a decimation that ranks two nearly equal
# biases differently can change the number of rounds, which the rounds
# columns show), with its geometric mean.
# SP_INPUTS selects rows by name (default: all); SP_FLAGS adds options to
# every dd-sp run (e.g. --max-flips=1000000: WalkSAT's flips, which run on
# the host and are not in sp_ms, otherwise dominate the larger rows).
# SP_LOOPS="host device" runs each way with both round loops
# (--round-loop=host, the default, and device: every round of a
# convergence in one cooperative launch, docs/sp.md "Who drives the
# rounds"), the four processes of an input in turn, and adds the columns
# and the ratio of each way's faster loop ("best / best"); with one loop
# (the default: host) the table is as above.
set -u
bin=${1:?usage: run.sh BIN_DIR WORK_DIR}
work=${2:?usage: run.sh BIN_DIR WORK_DIR}
runs=${SP_RUNS:-1}
loops=(${SP_LOOPS:-host})
for loop in "${loops[@]}"; do
  [[ $loop == host || $loop == device ]] || { echo "SP_LOOPS: '$loop' is neither host nor device" >&2; exit 2; }
done
timeout_s=${SP_TIMEOUT:-600}
mkdir -p "$work"
log=$work/log
: >"$log"

# want NAME: whether row NAME is selected (SP_INPUTS).
want() {
  [[ -z ${SP_INPUTS:-} || " $SP_INPUTS " == *" $1 "* ]]
}

# measure ALGO FORMULA [LOOP]: "SP_MS ROUNDS" of a verified run, or "FAIL -".
measure() {
  local out err=$work/measure.err
  if ! out=$(timeout -k 10 "$timeout_s" "$bin/dd-sp" --algo="$1" --verify --runs="$runs" \
               ${3:+--round-loop=$3} ${SP_FLAGS:-} "$2" 2>"$err"); then
    cat "$err" >>"$log"
    echo "FAIL -"
    return
  fi
  cat "$err" >>"$log"
  echo "$out" >>"$log"
  echo "$out" | tail -n 1 | sed -n 's/.* rounds \([0-9]*\) sp_ms \([0-9.]*\) .*/\2 \1/p'
}

rows=()
row() {
  local name=$1 vars=$2 ratio=$3 seed=$4
  want "$name" || return 0
  local file=$work/$name.cnf
  if [[ ! -s $file ]] &&
     ! "$bin/dd-graph" generate 3sat --vars="$vars" --ratio="$ratio" --seed="$seed" -o "$file" \
       >>"$log" 2>&1; then
    rows+=("$name|FAIL -|FAIL -")
    return
  fi
  echo "== $name" >>"$log"
  if [[ ${#loops[@]} -eq 1 && ${loops[0]} == host ]]; then
    rows+=("$name|$(measure atomic "$file")|$(measure gather "$file")")
    return
  fi
  local cells="$name" algo loop
  for algo in atomic gather; do
    for loop in "${loops[@]}"; do
      cells+="|$(measure "$algo" "$file" "$loop")"
    done
  done
  rows+=("$cells")
}

row sat-20k-4.2 20000 4.2 5
row sat-50k-4.2 50000 4.2 6
row sat-100k-4.2 100000 4.2 1
row sat-500k-4.2 500000 4.2 2
row sat-1m-4.2 1000000 4.2 3
row sat-1m-3.0 1000000 3.0 4

if [[ ${#rows[@]} -eq 0 ]]; then
  echo "no rows selected (SP_INPUTS=${SP_INPUTS:-})"
  exit 1
fi

if ! [[ ${#loops[@]} -eq 1 && ${loops[0]} == host ]]; then
  # Per way and loop: sp_ms (rounds); per loop the ratio atomic/gather of
  # the time per round; "best / best": each way's faster loop per round.
  header="| input |" rule="|---|"
  for algo in atomic gather; do
    for loop in "${loops[@]}"; do
      header+=" $algo, $loop |"
      rule+="---|"
    done
  done
  for loop in "${loops[@]}"; do
    header+=" atomic/gather, $loop |"
    rule+="---|"
  done
  echo "$header best / best |"
  echo "$rule---|"
  awk -F'|' -v n="${#loops[@]}" -v names="${loops[*]}" '
    function ok(x) { return x !~ /FAIL/ }
    function per(x) { split(x, p, " "); return ok(x) && p[2] > 0 ? p[1] / p[2] : 0 }
    function cell(x) { split(x, p, " "); return ok(x) ? sprintf("%s (%s)", p[1], p[2]) : "FAIL" }
    function ratio(a, b) { return a > 0 && b > 0 ? a / b : 0 }
    function fmt(r) { return r ? sprintf("%.2fx", r) : "-" }
    {
      line = "| " $1 " |"
      for (i = 2; i <= 1 + 2 * n; ++i) line = line " " cell($i) " |"
      best_a = best_g = 0; bad = 0
      for (i = 0; i < n; ++i) {
        a = per($(2 + i)); g = per($(2 + n + i))
        r = ratio(a, g)
        line = line " " fmt(r) " |"
        if (r) { lg[i] += log(r); ln[i]++ }
        if (!a || !g) bad = 1
        if (a && (!best_a || a < best_a)) best_a = a
        if (g && (!best_g || g < best_g)) best_g = g
      }
      b = bad ? 0 : ratio(best_a, best_g)
      print line " " fmt(b) " |"
      if (b) { bg += log(b); bn++ }
    }
    END {
      split(names, name, " ")
      out = ""
      for (i = 0; i < n; ++i)
        if (ln[i]) out = out sprintf("%satomic/gather, %s %.2fx over %d rows", out ? "; " : "", name[i + 1], exp(lg[i] / ln[i]), ln[i])
      if (bn) out = out sprintf("%sbest / best %.2fx over %d rows", out ? "; " : "", exp(bg / bn), bn)
      if (out) printf "\ngeomean %s\n", out
    }' < <(printf '%s\n' "${rows[@]}")
  exit 0
fi

echo "| input | atomic ms (rounds) | gather ms (rounds) | atomic/gather per round |"
echo "|---|---|---|---|"
awk -F'|' '
  function ok(x) { return x !~ /FAIL/ }
  function per(x) { split(x, p, " "); return p[2] > 0 ? p[1] / p[2] : 0 }
  function cell(x) { split(x, p, " "); return ok(x) ? sprintf("%s (%s)", p[1], p[2]) : "FAIL" }
  {
    r = ok($2) && ok($3) && per($3) > 0 ? per($2) / per($3) : 0
    printf "| %s | %s | %s | %s |\n", $1, cell($2), cell($3), r ? sprintf("%.2fx", r) : "-"
    if (r) { g += log(r); n++ }
  }
  END { if (n) printf "\ngeomean atomic/gather %.2fx over %d rows\n", exp(g / n), n }' < <(printf '%s\n' "${rows[@]}")
