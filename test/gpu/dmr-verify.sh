#!/usr/bin/env bash
# GPU test of dd-dmr: Delaunay mesh refinement on the GPU with compare-and-
# swap locks (--algo=locks), atomic marks (--algo=atomic), the atomic-marks
# race rewritten by the atomics pass (--algo=pass), the atomic-free 3-phase
# marking (--algo=free), the same marking in one cooperative launch a round
# with grid barriers (--algo=barrier), and the CPU reference (--algo=cpu), each with
# --verify (a valid triangulation, Delaunay within the tolerance, the input
# covered, no bad triangle left), on generated meshes. Run on the GPU
# machine:
#
#   test/gpu/dmr-verify.sh BIN_DIR
#
# DMR_ALGOS (default "cpu locks atomic pass free barrier") and DMR_GPU_ALGOS
# (the cases run without the CPU; default "locks atomic pass free barrier") select the
# algorithms.
# BIN_DIR holds dd-dmr and dd-graph. Meshes, generated in a scratch folder
# (dd-graph generate mesh --points=N: N random interior points of the unit
# square, Delaunay triangulated; the square alone written by hand): the
# tiny ones (0, 1, 2 and 10 interior points: no bad triangle, the first
# steps all boundary splits, a handful of workers that conflict), then 100 to 200000 points over several seeds, at
# minimum angles 20, 25, 30 and 33 degrees; and on some, few workers a
# round (--max-workers=1: every round a single worker; 7: many rounds, the
# priorities rotating), other block sizes, and --out read back (the refined
# mesh is a valid input with nothing left to refine: inserted 0); barrier
# also with grids of 1-17 blocks (a round's workers in many passes). Every run
# must end with bad_left 0 and its verification line. Each run is limited to
# DD_GPU_TEST_TIMEOUT seconds (default 300). Prints one line per run and
# "N passed, N failed"; exit status 1 when any failed.
set -u
bin=${1:?usage: dmr-verify.sh BIN_DIR}
timeout_s=${DD_GPU_TEST_TIMEOUT:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

fail() {
  echo "FAIL $1"
  failed=$((failed + 1))
}

# generate NAME POINTS SEED: dd-graph generate mesh into $work/NAME.{node,ele}
generate() {
  if ! "$bin/dd-graph" generate mesh --points="$2" --seed="$3" -o "$work/$1" \
       >"$work/gen.err" 2>&1; then
    fail "generate $1: $(tail -n 1 "$work/gen.err")"
    return 1
  fi
  echo "$work/$1"
}

# run MESH LABEL ALGO [options...]: one verified refinement.
run() {
  local mesh=$1 label=$2 algo=$3
  shift 3
  local name="$label --algo=$algo${*:+ $*}"
  rm -f "$work/out.node" "$work/out.ele"
  timeout -k 10 "$timeout_s" "$bin/dd-dmr" --algo="$algo" --verify --runs=2 "$@" \
    --out="$work/out" "$mesh" >"$work/run.out" 2>"$work/run.err"
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    [[ $rc -eq 124 || $rc -eq 137 ]] && echo "  (timed out after ${timeout_s}s)"
    fail "$name: exit $rc: $(tail -n 1 "$work/run.err")"
    return
  fi
  if ! grep -q '^dd-dmr: verified:' "$work/run.err"; then
    fail "$name: no verification line"
    return
  fi
  local result
  result=$(tail -n 1 "$work/run.out")
  if [[ $result != *" bad_left 0 "* ]]; then
    fail "$name: '$result'"
    return
  fi
  if [[ ! -s $work/out.node || ! -s $work/out.ele ]]; then
    fail "$name: --out wrote no BASE.node / BASE.ele"
    return
  fi
  local stats
  stats=$(sed -n 's/^dd-dmr: algo=.* \(bad_at_start=[0-9]*\) .* \(split_edges=[0-9]*\) \(conflicts=[0-9]*\) \(overflows=[0-9]*\) \(too_big=[0-9]*\) \(degenerate=[0-9]*\) \(serial_rounds=[0-9]*\)/\1 \2 \3 \4 \5 \6 \7/p' \
    "$work/run.err")
  echo "PASS $name ($result; $stats)"
  passed=$((passed + 1))
}

# reread LABEL: the last --out is a refined mesh: read back, verified,
# nothing to insert.
reread() {
  local name="$1: --out read back"
  if ! timeout -k 10 "$timeout_s" "$bin/dd-dmr" --algo=cpu --verify "$work/out" \
       >"$work/back.out" 2>"$work/back.err"; then
    fail "$name: $(tail -n 1 "$work/back.err")"
    return
  fi
  local result
  result=$(tail -n 1 "$work/back.out")
  if [[ $result != *" inserted 0 "* ]]; then
    fail "$name: '$result'"
    return
  fi
  echo "PASS $name ($result)"
  passed=$((passed + 1))
}

# check MESH LABEL [options...]: every algorithm.
check() {
  local mesh=$1 label=$2
  shift 2
  for algo in ${DMR_ALGOS:-cpu locks atomic pass free barrier}; do
    run "$mesh" "$label" "$algo" "$@"
  done
}

# The tiny meshes, every angle. No interior point (two triangles, none bad)
# is written here: the generator wants at least one.
printf '4 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n' >"$work/tiny-0.node"
printf '2 3 0\n0 0 1 2\n1 0 2 3\n' >"$work/tiny-0.ele"
for points in 0 1 2 10; do
  if m=$([[ $points == 0 ]] && echo "$work/tiny-0" || generate "tiny-$points" "$points" 1); then
    for angle in 20 25 30 33; do
      check "$m" "$points points" --min-angle="$angle"
    done
    run "$m" "$points points, one worker" free --max-workers=1
    run "$m" "$points points, one worker" atomic --max-workers=1
    run "$m" "$points points, one worker" barrier --max-workers=1
  fi
done

# A non-convex domain from hand-written files (test/dmr/Inputs/L: an
# L-shape, 1-based, co-circular cells): circumcenters beyond the re-entrant
# corner split boundary edges. DMR_LSHAPE names its BASE elsewhere
# (scripts/gpu-proof.sh copies it).
lshape=${DMR_LSHAPE:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/dmr/Inputs/L"}
if [[ -f $lshape.node ]]; then
  for angle in 20 30 33; do
    check "$lshape" "L-shape" --min-angle="$angle"
  done
else
  fail "L-shape: $lshape.node not found"
fi

# Small and medium meshes, several seeds and angles.
for seed in 1 2 3; do
  if m=$(generate "p100-s$seed" 100 "$seed"); then
    for angle in 20 25 30 33; do
      check "$m" "100 points seed $seed" --min-angle="$angle"
    done
  fi
  if m=$(generate "p5k-s$seed" 5000 "$seed"); then
    for angle in 20 30 33; do
      check "$m" "5000 points seed $seed" --min-angle="$angle"
    done
  fi
done
if m=$(generate p5k-few 5000 4); then
  for algo in ${DMR_GPU_ALGOS:-locks atomic pass free barrier}; do
    run "$m" "5000 points" "$algo" --max-workers=7
    run "$m" "5000 points" "$algo" --max-workers=1 --min-angle=20
    run "$m" "5000 points" "$algo" --block-size=32
    run "$m" "5000 points" "$algo" --block-size=1024
    reread "5000 points --algo=$algo"
  done
fi
for seed in 1 2; do
  if m=$(generate "p50k-s$seed" 50000 "$seed"); then
    check "$m" "50000 points seed $seed"
    check "$m" "50000 points seed $seed" --min-angle=25
  fi
done
# The barrier variant with small grids: a round's workers in many passes
# (one block: passes of 128 workers, the barrier within one block).
if m=$(generate p50k-s1 50000 1); then
  for blocks in 1 3 17; do
    run "$m" "50000 points, $blocks blocks" barrier --max-blocks="$blocks"
  done
  run "$m" "50000 points, 2 blocks of 1024" barrier --max-blocks=2 --block-size=1024
fi
if m=$(generate p200k 200000 9); then
  check "$m" "200000 points"
  reread "200000 points --algo=free"
  run "$m" "200000 points" barrier
  reread "200000 points --algo=barrier"
  check "$m" "200000 points" --min-angle=33
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
