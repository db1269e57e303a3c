// Corpus shim (docs/corpus.md): given with -I before the toolkit's headers,
// this includes the real <cub/cub.cuh> and adds back what CCCL 3 removed
// (cub/legacy.cuh), so that old code parses and compiles as its authors
// wrote it. Only for scripts/corpus-check.sh runs.
#pragma once
#include_next <cub/cub.cuh>
#include "legacy.cuh"
