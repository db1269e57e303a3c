#!/usr/bin/env bash
# Builds examples/external, a CUDA project of its own, against decoupler as
# installed (compile only: no GPU needed), as a new user's project would:
#
#   1. cmake --install <build> --prefix <work>/prefix
#   2. configure and build a copy of examples/external with
#      -DCMAKE_PREFIX_PATH=<work>/prefix (find_package(decoupler CONFIG))
#   3. check that both rewritten sources (a/histogram.cu and b/histogram.cu,
#      one file name) exist, differ from their inputs, call the runtime and
#      carry #line directives naming their inputs, and that the installed tool
#      did the rewriting
#   4. check that a second build has nothing to do
#   5. touch a/util.h: the next build re-runs the rewrite of a/histogram.cu
#      (the tool's depfile), and not that of b/histogram.cu
#
#   scripts/check-external.sh [WORK_DIR]
#
# WORK_DIR (default: a temporary directory, removed afterwards) receives the
# prefix, the copy of the sources and the build. Environment:
# DECOUPLER_BUILD_DIR (default build/, must be built), CMAKE (default cmake),
# CUDA_PATH (default /usr/local/cuda), JOBS (default 2). Prints
# `check-external: ok` and exits 0 when every check passes; otherwise says
# which failed and exits 1. Run by test/cmake/external.test (so by
# scripts/test.sh and CI).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${DECOUPLER_BUILD_DIR:-$root/build}"
cmake="${CMAKE:-cmake}"
nvcc="${CUDA_PATH:-/usr/local/cuda}/bin/nvcc"
jobs="${JOBS:-2}"

if [ $# -gt 1 ]; then
  echo "usage: scripts/check-external.sh [WORK_DIR]" >&2
  exit 2
fi
if [ $# -eq 1 ]; then
  work="$1"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi

fail() {
  echo "check-external: FAIL: $*" >&2
  exit 1
}
[ -f "$build/CMakeCache.txt" ] || fail "no decoupler build in $build (run scripts/setup.sh)"
[ -x "$nvcc" ] || fail "no nvcc at $nvcc (set CUDA_PATH)"

prefix="$work/prefix" src="$work/src" out="$work/build"
rm -rf "$prefix" "$src" "$out"
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" ||
  fail "cmake --install $build failed (see $work/install.log)"
cp -r "$root/examples/external" "$src"

"$cmake" -S "$src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$nvcc" > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "configuring examples/external failed"; }
"$cmake" --build "$out" -j "$jobs" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building examples/external failed"; }

for dir in a b; do
  input="$src/$dir/histogram.cu"
  output="$out/decoupler/histograms_dd/$dir/histogram.dd.cu"
  [ -f "$output" ] || fail "no rewritten $dir/histogram.cu at $output"
  cmp -s "$input" "$output" && fail "$output is identical to its input"
  grep -q 'dd::atomic_add_' "$output" || fail "$output does not call dd::atomic_add_*"
  grep -qF "#line 1 \"$input\"" "$output" || fail "$output has no #line naming $input"
  grep -q "rewriting $dir/histogram.cu for histograms_dd" "$work/build.log" ||
    fail "the build log does not show the rewrite of $dir/histogram.cu"
done
grep -q "COMMAND = .*$prefix/bin/decoupler " "$out/build.ninja" ||
  fail "the rewrite does not run the installed tool $prefix/bin/decoupler"
[ -x "$out/histograms" ] && [ -x "$out/histograms_dd" ] || fail "a program is missing"

"$cmake" --build "$out" -j "$jobs" > "$work/rebuild.log" 2>&1 || fail "rebuild failed"
grep -q "no work to do" "$work/rebuild.log" ||
  { cat "$work/rebuild.log" >&2; fail "a second build without changes did work"; }

touch "$src/a/util.h"
"$cmake" --build "$out" -j "$jobs" > "$work/header.log" 2>&1 || fail "rebuild after touching a/util.h failed"
grep -q "rewriting a/histogram.cu for histograms_dd" "$work/header.log" ||
  { cat "$work/header.log" >&2; fail "touching a/util.h did not re-run the rewrite of a/histogram.cu"; }
if grep -q "rewriting b/histogram.cu" "$work/header.log"; then
  fail "touching a/util.h re-ran the rewrite of b/histogram.cu"
fi

echo "check-external: ok"
