//===- dd/load_balance/device_search.cuh - Device-wide binary search -*- CUDA -*-===//
//
// Mapping by a device-wide binary search (Busato and Bombieri's third
// technique, ../shared/papers/load-balancing-graph-traversal.txt, 3.3): the
// ranges of n items (a frontier's vertices) are laid end to end by an
// exclusive prefix sum of their sizes, and the grid splits the
// concatenation into equal chunks, one per block; each thread finds the
// item its edge belongs to by a binary search over the prefix sums. Every
// thread of the grid gets the same number of edges whatever the degrees, so
// a hub of 10^6 edges is spread over the whole GPU as evenly as a road
// network's vertices of degree 3; the price is a prefix sum per frontier
// (two more launches) and a search per edge, which regular graphs do not
// need.
//
// Host side, once per frontier (SearchOffsets): the items' sizes, then
// their exclusive sum (CUB), offsets[0..n] with offsets[n] the total. Device
// side, in a kernel every thread of the grid runs (DeviceSearch):
//
//   __shared__ dd::lb::DeviceSearch<256>::TempStorage temp;
//   dd::lb::DeviceSearch<256>(temp).run(offsets, n,
//       [&](std::uint32_t i) { return dd::lb::Range<Dist>{row[frontier[i]], dist[frontier[i]]}; },
//       [&](Dist du, std::uint32_t e) { relax(du, e); });
//
// Contract: every thread of every block of the grid calls run() once, with
// the same offsets and n; blocks have BlockThreads threads. op(item, e) is
// called exactly once for every edge of every item's range (e = the range's
// begin + its position in the range), with range(i).item, in no particular
// order.
//
//===----------------------------------------------------------------------===//
#ifndef DD_LOAD_BALANCE_DEVICE_SEARCH_CUH
#define DD_LOAD_BALANCE_DEVICE_SEARCH_CUH

#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

namespace dd::lb {

/// Where an item's range starts, and what each of its edge visits needs.
template <class Item> struct Range {
  std::uint32_t begin;
  Item item;
};

/// The device side: one chunk of the concatenated ranges per block.
///
/// @tparam BlockThreads  threads per block
template <unsigned BlockThreads> class DeviceSearch {
public:
  struct TempStorage {
    std::uint32_t first, last; // the items the block's chunk starts and ends in
  };

  __device__ explicit DeviceSearch(TempStorage &temp) : temp_(temp) {}

  /// @param offsets  exclusive sums of the n items' sizes, and the total at n
  /// @param range    `(std::uint32_t i) -> Range<Item>`
  /// @param op       `(Item, std::uint32_t e)`
  template <class RangeOf, class EdgeOp>
  __device__ __forceinline__ void run(const std::uint32_t *offsets, std::uint32_t n,
                                      RangeOf &&range, EdgeOp &&op) {
    const std::uint32_t total = offsets[n];
    // Chunks of whole block strides, so that the threads of a block read
    // neighbouring edges.
    const std::uint64_t per_block = (std::uint64_t(total) + gridDim.x - 1) / gridDim.x;
    const std::uint64_t chunk = (per_block + BlockThreads - 1) / BlockThreads * BlockThreads;
    const std::uint64_t lo = std::uint64_t(blockIdx.x) * chunk;
    const std::uint64_t hi = lo + chunk < total ? lo + chunk : total;
    if (lo >= hi)
      return; // the same in every thread of the block: no barrier skipped
    if (threadIdx.x == 0) {
      temp_.first = owner(offsets, 0, n, std::uint32_t(lo));
      temp_.last = owner(offsets, temp_.first, n, std::uint32_t(hi - 1));
    }
    __syncthreads();
    const std::uint32_t first = temp_.first, last = temp_.last;
    for (std::uint64_t k = lo + threadIdx.x; k < hi; k += BlockThreads) {
      const std::uint32_t i = owner(offsets, first, last + 1, std::uint32_t(k));
      const auto r = range(i);
      op(r.item, r.begin + (std::uint32_t(k) - offsets[i]));
    }
  }

private:
  /// The item of [from, to) whose range holds edge k: the last i with
  /// offsets[i] <= k (offsets[from] <= k < offsets[to] or the total).
  __device__ __forceinline__ static std::uint32_t owner(const std::uint32_t *offsets,
                                                        std::uint32_t from, std::uint32_t to,
                                                        std::uint32_t k) {
    while (to - from > 1) {
      const std::uint32_t mid = from + (to - from) / 2;
      if (offsets[mid] <= k)
        from = mid;
      else
        to = mid;
    }
    return from;
  }

  TempStorage &temp_;
};

namespace detail {
template <class SizeOf>
__global__ void write_sizes(std::uint32_t n, SizeOf size_of, std::uint32_t *sizes) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i <= n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    sizes[i] = i < n ? size_of(std::uint32_t(i)) : 0u;
}
} // namespace detail

/// The host side: offsets[0..n] of up to `capacity` items, in device memory
/// it owns.
class SearchOffsets {
public:
  SearchOffsets() = default;
  SearchOffsets(const SearchOffsets &) = delete;
  SearchOffsets &operator=(const SearchOffsets &) = delete;
  ~SearchOffsets() {
    cudaFree(sizes_);
    cudaFree(temp_);
  }

  /// Allocates for up to `capacity` items.
  cudaError_t reserve(std::uint32_t capacity) {
    capacity_ = capacity;
    const std::uint64_t words = 2 * (std::uint64_t(capacity) + 1);
    if (cudaError_t err = cudaMalloc(&sizes_, words * sizeof(std::uint32_t)); err != cudaSuccess)
      return err;
    offsets_ = sizes_ + capacity + 1;
    if (cudaError_t err = cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes_, sizes_, offsets_,
                                                         int(capacity) + 1);
        err != cudaSuccess)
      return err;
    return cudaMalloc(&temp_, temp_bytes_ > 0 ? temp_bytes_ : 1);
  }

  /// Enqueues offsets of items [0, n): sizes from `size_of(i)` (a functor
  /// with a __device__ call operator), then their exclusive sum.
  template <class SizeOf>
  cudaError_t compute(std::uint32_t n, SizeOf size_of, unsigned blocks, unsigned threads,
                      cudaStream_t stream = nullptr) {
    if (n > capacity_)
      return cudaErrorInvalidValue;
    detail::write_sizes<<<blocks, threads, 0, stream>>>(n, size_of, sizes_);
    if (cudaError_t err = cudaGetLastError(); err != cudaSuccess)
      return err;
    return cub::DeviceScan::ExclusiveSum(temp_, temp_bytes_, sizes_, offsets_, int(n) + 1,
                                         stream);
  }

  const std::uint32_t *data() const { return offsets_; }

private:
  std::uint32_t capacity_ = 0;
  std::uint32_t *sizes_ = nullptr;
  std::uint32_t *offsets_ = nullptr;
  void *temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

} // namespace dd::lb

#endif // DD_LOAD_BALANCE_DEVICE_SEARCH_CUH
