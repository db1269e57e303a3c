// <dd/load_balance.cuh> compiles for every architecture nvcc has; the block
// strategies also for sm_60 with clang (they need only shuffles, ballots and
// barriers). The device-wide search's host side launches CUB's scan, which
// clang's device-only syntax check cannot parse against CUDA 13.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_60 -DBLOCK_STRATEGIES_ONLY %s
#ifdef BLOCK_STRATEGIES_ONLY
#include <dd/load_balance/thread_warp_block.cuh>
#include <dd/load_balance/warp_scan.cuh>
#include <dd/load_balance/warp_shuffle.cuh>
#else
#include <dd/load_balance.cuh>
#endif

// Each block strategy, with a 64-bit item (two shuffles) and a 32-bit one.
template <class Expand, class Item>
__global__ void expand(const unsigned *offsets, const unsigned *items, unsigned n,
                       unsigned long long *sum) {
  __shared__ typename Expand::TempStorage temp;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned begin = i < n ? offsets[i] : 0, end = i < n ? offsets[i + 1] : 0;
  Expand(temp).run(begin, end, Item(i < n ? items[i] : 0),
                   [&](Item item, unsigned e) { atomicAdd(sum, (unsigned long long)(item + e)); });
}

template __global__ void expand<dd::lb::ThreadWarpBlock<256, unsigned long long>, unsigned long long>(
    const unsigned *, const unsigned *, unsigned, unsigned long long *);
template __global__ void expand<dd::lb::WarpShuffle<4, unsigned>, unsigned>(
    const unsigned *, const unsigned *, unsigned, unsigned long long *);
template __global__ void expand<dd::lb::WarpShuffle<32, unsigned long long>, unsigned long long>(
    const unsigned *, const unsigned *, unsigned, unsigned long long *);
template __global__ void expand<dd::lb::WarpScan<unsigned long long>, unsigned long long>(
    const unsigned *, const unsigned *, unsigned, unsigned long long *);

#ifndef BLOCK_STRATEGIES_ONLY
struct Degree {
  const unsigned *offsets;
  __device__ unsigned operator()(unsigned i) const { return offsets[i + 1] - offsets[i]; }
};

__global__ void search(const unsigned *scanned, const unsigned *offsets, unsigned n,
                       unsigned long long *sum) {
  __shared__ dd::lb::DeviceSearch<128>::TempStorage temp;
  dd::lb::DeviceSearch<128>(temp).run(
      scanned, n, [&](unsigned i) { return dd::lb::Range<unsigned>{offsets[i], i}; },
      [&](unsigned item, unsigned e) { atomicAdd(sum, (unsigned long long)(item + e)); });
}

#ifndef __CUDA_ARCH__
cudaError_t plan(const unsigned *offsets, unsigned n) {
  dd::lb::SearchOffsets prefix;
  if (cudaError_t err = prefix.reserve(n); err != cudaSuccess)
    return err;
  return prefix.compute(n, Degree{offsets}, 4, 128);
}
#endif
#endif
