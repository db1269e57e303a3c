#!/usr/bin/env bash
# Compiles C (or C++) files into one LLVM bitcode module, the input of
# dd-pta (docs/pta.md, "On real programs"):
#
#   bench/pta/make-input.sh OUT.bc [clang flags --] FILE.c...
#
# Each file through `clang-22 -O0 -c -emit-llvm -fno-discard-value-names`
# (the flags before `--` are added, e.g. -DLUA_USE_LINUX or -I dirs), then
# `llvm-link-22` into OUT.bc, so that the program's own functions are
# defined where they are called. OUT.bc is written only when every step
# succeeded.
set -euo pipefail
out=${1:?usage: make-input.sh OUT.bc [clang flags --] FILE...}
shift
flags=()
if [[ " $* " == *" -- "* ]]; then
  while [[ $1 != -- ]]; do flags+=("$1"); shift; done
  shift
fi
(($# > 0)) || { echo "make-input.sh: no source files" >&2; exit 1; }
CLANG=${CLANG:-clang-22}
LINK=${LLVM_LINK:-llvm-link-22}
command -v "$CLANG" >/dev/null || { echo "make-input.sh: $CLANG not found (apt install clang-22)" >&2; exit 1; }
command -v "$LINK" >/dev/null || { echo "make-input.sh: $LINK not found (apt install llvm-22)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objs=()
i=0
for f in "$@"; do
  obj="$work/$i.bc"
  i=$((i + 1))
  "$CLANG" -O0 -c -emit-llvm -fno-discard-value-names -w "${flags[@]}" "$f" -o "$obj"
  objs+=("$obj")
done
"$LINK" "${objs[@]}" -o "$work/out.bc"
mv "$work/out.bc" "$out"
echo "make-input.sh: $out from $# files"
