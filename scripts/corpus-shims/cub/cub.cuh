// Corpus shim (docs/corpus.md, "LonestarGPU"): LonestarGPU calls
// cub::LaneId() and cub::LaneMaskLt(), which CUB had in util_ptx.cuh and
// CCCL 3 removed. Given with -I before the toolkit's headers, this includes
// the real <cub/cub.cuh> and adds the two back, so that the corpus parses and
// compiles as its authors wrote it. Only for scripts/corpus-check.sh runs.
#pragma once
#include_next <cub/cub.cuh>

namespace cub {
/// The calling thread's lane in its warp (%laneid).
__device__ __forceinline__ unsigned int LaneId() {
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/// The lanes below the calling one, as a mask (%lanemask_lt).
__device__ __forceinline__ unsigned int LaneMaskLt() {
  unsigned int mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}
} // namespace cub
