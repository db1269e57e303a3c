//===- dd/scatter.cuh - Sort and scatter (atomicSS), device side -*- CUDA -*-===//
//
// atomicSS (Egielski et al., Alg. 3) moves whole logical warps so that warps
// whose atomics hit the same words run far apart in time, instead of
// reducing their collisions. The host computes the order once
// (dd::scatter_remap in scatter_remap.h) and uploads it; the kernel then
// takes its work from the logical warp the remap assigns to the launched
// one:
//
//   // host, once per key pattern (e.g. per sparse matrix):
//   std::vector<unsigned> remap = dd::scatter_remap_threads(rows.data(), nnz);
//   // device: launch remap.size() * 32 threads, any block size
//   unsigned long long i = dd::remapped_thread_index(d_remap);
//   if (i < nnz) atomicAdd(&y[row[i]], val[i] * x[col[i]]);
//
// Logical thread index = remap[launched warp] * 32 + lane within it, a
// permutation of [0, 32 * remap.size()). Warps stay whole (each logical warp
// runs as one hardware warp, so its coalescing and its intra-warp
// aggregation are unchanged) when the block size is a multiple of 32; with
// other block sizes the mapping is still a permutation, but a logical warp
// may straddle two hardware warps.
//
//===----------------------------------------------------------------------===//
#ifndef DD_SCATTER_CUH
#define DD_SCATTER_CUH

#include "dd/warp.cuh"

namespace dd {

/// The calling thread's index in the whole grid, row-major over 3-D grids
/// and blocks (x fastest), 64-bit.
__device__ __forceinline__ unsigned long long global_thread_index() {
  const unsigned long long block =
      blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                       (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return block * (static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z) + thread;
}

/// The launched warp of the calling thread: global_thread_index() / 32.
__device__ __forceinline__ unsigned long long launched_warp() {
  return global_thread_index() / warp_size;
}

/// The logical warp the launched warp runs: remap[launched_warp()].
///
/// @param remap  device copy of dd::scatter_remap's result; the grid must
///               not have more warps than it has entries (or guard with
///               launched_warp() < entries first)
__device__ __forceinline__ unsigned remapped_warp(const unsigned *remap) {
  return remap[launched_warp()];
}

/// The logical thread index the calling thread works on:
/// remap[launched warp] * 32 + (global_thread_index() % 32).
__device__ __forceinline__ unsigned long long remapped_thread_index(const unsigned *remap) {
  const unsigned long long gtid = global_thread_index();
  return static_cast<unsigned long long>(remap[gtid / warp_size]) * warp_size +
         gtid % warp_size;
}

/// As above for grids that may be larger than the remap: threads of warps
/// beyond its `num_warps` entries get `~0ull`, which fails every `i < n`.
__device__ __forceinline__ unsigned long long remapped_thread_index(const unsigned *remap,
                                                                    unsigned long long num_warps) {
  const unsigned long long gtid = global_thread_index();
  if (gtid / warp_size >= num_warps)
    return ~0ull;
  return static_cast<unsigned long long>(remap[gtid / warp_size]) * warp_size +
         gtid % warp_size;
}

} // namespace dd

#endif // DD_SCATTER_CUH
