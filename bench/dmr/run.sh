#!/usr/bin/env bash
# Delaunay mesh refinement on the GPU (issue 17 part 3, docs/dmr.md): the
# baseline with atomic marks against the atomic-free 3-phase marking, in
# one run on one GPU, every result verified.
#
#   bench/dmr/run.sh BIN_DIR WORK_DIR
#
# BIN_DIR holds dd-dmr and dd-graph; random meshes of the unit square
# (dd-graph generate mesh --points=N: N random interior points, Delaunay
# triangulated, about 2N triangles of which about half are bad at 30
# degrees, the morph paper's kind of input) are generated into WORK_DIR as
# NAME.node and NAME.ele (existing ones are reused). Per input, the ways a
# worker owns its cavity:
#   atomic       --algo=atomic: atomicMax marks, a check, atomicAdd for the
#                new triangles and points (baseline)
#   free         --algo=free: race / priority check / check, plain stores, a
#                prefix sum for the new triangles (atomic-free)
#   barrier      --algo=barrier: free's phases in one cooperative launch a
#                round, grid barriers between them, the cavity kept from
#                the race to the apply (atomic-free, persistent threads)
#   pass         --algo=pass: atomic with its race rewritten by the atomics
#                pass (monotonic: guarded relaxed stores instead of atomicMax)
#   locks        --algo=locks, only with DMR_LOCKS=1: a compare-and-swap
#                try-lock per triangle, all dropped on a conflict
# run one after the other on each input, each with --verify and --runs=R
# (default DMR_RUNS=3; one untimed warm-up first; each run refines a fresh
# copy of the input). The table gives the input's triangles and bad
# triangles at 30 degrees, per way refine_ms (the median run's time in
# rounds, CUDA events, the mesh already on the device) and the rounds of
# the last run, and the ratios atomic/free and atomic/barrier (> 1: the
# atomic-free variant is faster), with their geometric means. The papers' inputs: 0.5 to 10 million
# triangles, about 50% bad; the default rows are 0.5 to 4 million triangles,
# the row mesh-5m (10 million) runs only when DMR_INPUTS names it.
# DMR_INPUTS selects rows by name (default: all but mesh-5m); DMR_FLAGS adds
# options to every dd-dmr run (e.g. --min-angle=25, --max-workers=N);
# DMR_TIMEOUT limits each dd-dmr run (seconds, default 900).
set -u
bin=${1:?usage: run.sh BIN_DIR WORK_DIR}
work=${2:?usage: run.sh BIN_DIR WORK_DIR}
runs=${DMR_RUNS:-3}
timeout_s=${DMR_TIMEOUT:-900}
mkdir -p "$work"
log=$work/log
: >"$log"

# want NAME [opt-in]: whether row NAME is selected (DMR_INPUTS); an opt-in
# row only when named.
want() {
  if [[ -z ${DMR_INPUTS:-} ]]; then
    [[ ${2:-} != opt-in ]]
  else
    [[ " $DMR_INPUTS " == *" $1 "* ]]
  fi
}

# measure ALGO BASE: "REFINE_MS ROUNDS TRIANGLES BAD" of a verified run, or
# "FAIL - - -".
measure() {
  local out err=$work/measure.err
  if ! out=$(timeout -k 10 "$timeout_s" "$bin/dd-dmr" --algo="$1" --verify --runs="$runs" \
               ${DMR_FLAGS:-} "$2" 2>"$err"); then
    cat "$err" >>"$log"
    echo "FAIL - - -"
    return
  fi
  cat "$err" >>"$log"
  echo "$out" >>"$log"
  local ms rounds tris bad
  ms=$(echo "$out" | tail -n 1 | sed -n 's/.* refine_ms \([0-9.]*\).*/\1/p')
  rounds=$(echo "$out" | tail -n 1 | sed -n 's/.* rounds \([0-9]*\) .*/\1/p')
  tris=$(sed -n 's/^dd-dmr: algo=.* input_triangles=\([0-9]*\) .*/\1/p' "$err")
  bad=$(sed -n 's/^dd-dmr: algo=.* bad_at_start=\([0-9]*\) .*/\1/p' "$err")
  echo "${ms:-FAIL} ${rounds:--} ${tris:--} ${bad:--}"
}

rows=()
row() {
  local name=$1 points=$2 seed=$3
  want "$name" "${4:-}" || return 0
  local base=$work/$name
  if [[ ! -s $base.node || ! -s $base.ele ]] &&
     ! "$bin/dd-graph" generate mesh --points="$points" --seed="$seed" -o "$base" \
       >>"$log" 2>&1; then
    rows+=("$name|FAIL - - -|FAIL - - -|SKIP - - -|FAIL - - -|FAIL - - -")
    return
  fi
  echo "== $name" >>"$log"
  local a f p b l="SKIP - - -"
  a=$(measure atomic "$base")
  f=$(measure free "$base")
  b=$(measure barrier "$base")
  p=$(measure pass "$base")
  [[ -n ${DMR_LOCKS:-} ]] && l=$(measure locks "$base")
  rows+=("$name|$a|$f|$l|$p|$b")
}

row mesh-250k 250000 1
row mesh-500k 500000 2
row mesh-1m 1000000 3
row mesh-2m 2000000 4
row mesh-5m 5000000 5 opt-in

if [[ ${#rows[@]} -eq 0 ]]; then
  echo "no rows selected (DMR_INPUTS=${DMR_INPUTS:-})"
  exit 1
fi

echo "| input | triangles | bad at start | atomic ms (rounds) | free ms (rounds) | atomic/free | barrier ms (rounds) | atomic/barrier | pass ms (rounds) | atomic/pass | locks ms (rounds) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
awk -F'|' '
  function ok(x) { return x !~ /FAIL|SKIP/ }
  function cell(x) { split(x, p, " "); return ok(x) ? sprintf("%s (%s)", p[1], p[2]) : (x ~ /SKIP/ ? "-" : "FAIL") }
  function field(x, y, i) { split(x, p, " "); if (ok(x)) return p[i]; split(y, q, " "); return ok(y) ? q[i] : "-" }
  {
    split($2, a, " "); split($3, f, " ")
    r = ok($2) && ok($3) && f[1] > 0 ? a[1] / f[1] : 0
    split($5, q, " ")
    rp = ok($2) && ok($5) && q[1] > 0 ? a[1] / q[1] : 0
    split($6, b, " ")
    rb = ok($2) && ok($6) && b[1] > 0 ? a[1] / b[1] : 0
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, field($2, $3, 3), field($2, $3, 4),
           cell($2), cell($3), r ? sprintf("%.2fx", r) : "-", cell($6), rb ? sprintf("%.2fx", rb) : "-",
           cell($5), rp ? sprintf("%.2fx", rp) : "-", cell($4)
    if (rp) { gp += log(rp); np++ }
    if (rb) { gb += log(rb); nb++ }
    if (r) { g += log(r); n++ }
  }
  END {
    if (n) printf "\ngeomean atomic/free %.2fx over %d rows\n", exp(g / n), n
    if (nb) printf "geomean atomic/barrier %.2fx over %d rows\n", exp(gb / nb), nb
    if (np) printf "geomean atomic/pass %.2fx over %d rows\n", exp(gp / np), np
  }' < <(printf '%s\n' "${rows[@]}")
