// Corpus shim (docs/corpus.md): pieces of CUB that CCCL 3 removed and that
// corpus code still calls, added back for scripts/corpus-check.sh runs only.
// Included by this folder's cub/cub.cuh and cub/block/block_reduce.cuh after
// the toolkit's own headers.
#pragma once

namespace cub {
/// The calling thread's lane in its warp (%laneid); LonestarGPU.
__device__ __forceinline__ unsigned int LaneId() {
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/// The lanes below the calling one, as a mask (%lanemask_lt); LonestarGPU.
__device__ __forceinline__ unsigned int LaneMaskLt() {
  unsigned int mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

/// The reduction functors CCCL 3 replaced by cuda::maximum/cuda::minimum;
/// Kaldi.
struct Max {
  template <class T>
  __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <class T>
  __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const {
    return b < a ? b : a;
  }
};
} // namespace cub
