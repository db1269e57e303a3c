#!/usr/bin/env bash
# Formats the tool and the passes with clang-format (LLVM style, .clang-format
# at the top). `scripts/format.sh --check` changes nothing and exits 1 when a
# file is not formatted (for CI).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cf=${CLANG_FORMAT:-clang-format-22}
command -v "$cf" >/dev/null || { echo "format.sh: $cf not found (Debian: clang-format-22)" >&2; exit 1; }
mapfile -t files < <(cd "$root" && git ls-files 'tool/*.cpp' 'tool/*.h' 'passes/*.cpp' 'passes/*.h')
cd "$root"
if [ "${1:-}" = "--check" ]; then
  "$cf" --dry-run -Werror "${files[@]}"
else
  "$cf" -i "${files[@]}"
fi
