// Corpus shim (docs/corpus.md): the real <cub/block/block_reduce.cuh> and
// what CCCL 3 removed from CUB (cub/legacy.cuh); Kaldi includes only this.
#pragma once
#include_next <cub/block/block_reduce.cuh>
#include "../legacy.cuh"
