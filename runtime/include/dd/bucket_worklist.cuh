//===- dd/bucket_worklist.cuh - ADDS's decoupled bucketed worklist -*- CUDA -*-===//
//
// The priority worklist of ADDS (Wang, dissertation ch. 5): 32 buckets of
// work items (32-bit ids) ordered by priority, written by every worker thread
// and read by one manager block that hands the items out. Bucket k holds the
// priorities [base + k*Delta, base + (k+1)*Delta) counted from the head
// bucket; the last (tail) bucket also takes everything beyond. The head moves
// on (base += Delta) once its bucket is empty and all its items are done;
// Delta changes at run time.
//
// Why a manager block: a multi-writer, multi-reader FIFO with one reader
// instead of thousands needs no reader-reader synchronization, and the
// reader touches only metadata (one coalesced warp load validates 32
// segments of 256 items), so items flow without any grid-wide barrier.
//
//   Storage               device pointers of everything below (by value)
//   BucketWorklist        host side: allocates, seeds, reports (bottom)
//   Worker<Threads>       a worker block: next() assignment, push(), complete()
//   Manager<Threads>      block 0 of the same grid: probe, assign and
//                         memory-management warps, head switches, Delta,
//                         termination
//
// Layout (all positions are 64-bit and never wrap):
//  - A pool of `pool_blocks` data blocks of 64K words, shared by the buckets.
//    Bucket b's position p lives in the block table[b][(p >> 16) & 0xffff]
//    at word p & 0xffff. The memory-management warp maps blocks two ahead of
//    each bucket's reservation pointer and takes them back once every word
//    was read (FIFO order makes both decisions local to the manager).
//  - resv[b]: reservation pointer; writers fetch_add it (warp-aggregated).
//  - wfc[block][s]: write-finished counter of 256-word segment s; writers add
//    to it (release) after writing. A probe accepts a segment when its count
//    is 256, or when it equals the number of reserved positions in it with
//    resv loaded *after* the count: then every reserved position is written.
//  - dwc[b]: done-work counter, added to (release) by a worker block after it
//    processed an assignment from b and pushed everything that produced.
//  - rdc[block]: read-done counter; the worker that brings it to 64K resets
//    the block's counters and marks it free (release) for the manager.
//  - assignment[w]: worker block w's assignment flag (64-bit; 0 = idle).
//
// Termination is exact: every push happens before the done-count add of the
// assignment that made it, so reading all dwc (acquire) and then all resv
// gives sum(dwc) == sum(resv) only when no item is reserved, queued or being
// processed (docs/sssp.md has the argument).
//
// All blocks of the grid must be resident at once (the manager and workers
// wait on each other): launch with cudaLaunchCooperativeKernel, which fails
// instead of deadlocking when the grid does not fit, and size the grid from
// occupancy (BucketWorklist::plan).
//
//===----------------------------------------------------------------------===//
#ifndef DD_BUCKET_WORKLIST_CUH
#define DD_BUCKET_WORKLIST_CUH

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

// The parts (CUB-style): sizes, Config, Stats, Params and Storage; the worker
// blocks' side; the manager block.
#include "dd/detail/bucket_common.cuh"
#include "dd/detail/bucket_manager.cuh"
#include "dd/detail/bucket_worker.cuh"

namespace dd::buckets {

namespace detail {

/// The items BucketWorklist::seed puts into bucket 0, passed by value.
struct SeedItems {
  unsigned count;
  unsigned items[kSegmentWords];
};

/// Empties the worklist and seeds bucket 0 in one launch. Ten memsets, four
/// copies and a host synchronization did it before: ADDS's time before its
/// kernel went from 0.042-0.090 to 0.014-0.051 ms on an H100, and wiki-Vote
/// from 0.305-0.355 to 0.266-0.278 ms in all (docs/PERF.md). Every
/// word is written by one thread: the seeded ones get their seeded values
/// instead of the cleared ones. A template, so that the header may be
/// included in several files.
template <int = 0> __global__ void seed_worklist(Storage s, SeedItems seed) {
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  // Bucket 0's slot 0 is data block 0, holding the items in segment 0.
  for (std::size_t i = first; i < std::size_t(kBuckets) * kTableSlots; i += stride)
    s.table[i] = i == 0 && seed.count > 0 ? 0u : kUnmapped;
  for (std::size_t i = first; i < std::size_t(s.pool_blocks) * kSegmentsPerBlock; i += stride)
    s.wfc[i] = i == 0 ? seed.count : 0u;
  for (std::size_t i = first; i < s.pool_blocks; i += stride) {
    s.rdc[i] = 0;
    s.freed[i] = 0;
  }
  for (std::size_t i = first; i < std::size_t(kBuckets) * kCounterStride; i += stride) {
    s.resv[i] = i == 0 ? seed.count : 0ull;
    s.dwc[i] = 0;
  }
  for (std::size_t i = first; i < s.workers; i += stride)
    s.assignment[i] = 0;
  for (std::size_t i = first; i < sizeof(Config); i += stride)
    reinterpret_cast<unsigned char *>(s.config)[i] = 0;
  for (std::size_t i = first; i < sizeof(Stats); i += stride)
    reinterpret_cast<unsigned char *>(s.stats)[i] = 0;
  if (first == 0)
    *s.status = 0;
  for (std::size_t i = first; i < seed.count; i += stride)
    s.pool[i] = seed.items[i];
}

} // namespace detail

/// Host side: owns a worklist's device memory. Not copyable.
///
///   BucketWorklist wl;
///   wl.allocate(pool_blocks, workers);          // cudaError_t
///   wl.seed(items, n, stream);                  // before every launch
///   kernel<<<...>>>(wl.storage(), ...);         // cooperative launch
///   wl.read(status, stats);                     // after it
class BucketWorklist {
public:
  BucketWorklist() = default;
  BucketWorklist(const BucketWorklist &) = delete;
  BucketWorklist &operator=(const BucketWorklist &) = delete;
  ~BucketWorklist() { release(); }

  /// Data blocks for about `items` items in flight: one per 64K, plus three
  /// per bucket (two mapped ahead, one partly read), at most kMaxPoolBlocks.
  static unsigned pool_blocks_for(unsigned long long items) {
    const unsigned long long blocks = (items + kBlockWords - 1) / kBlockWords + 3 * kBuckets + 8;
    return blocks < kMaxPoolBlocks ? static_cast<unsigned>(blocks) : kMaxPoolBlocks;
  }

  /// Allocates a pool of `pool_blocks` (<= kMaxPoolBlocks) data blocks and
  /// flags for `workers` (<= kMaxWorkers) worker blocks.
  [[nodiscard]] cudaError_t allocate(unsigned pool_blocks, unsigned workers) {
    release();
    if (pool_blocks < 1 || pool_blocks > kMaxPoolBlocks || workers < 1 || workers > kMaxWorkers)
      return cudaErrorInvalidValue;
    s_.pool_blocks = pool_blocks;
    s_.workers = workers;
    cudaError_t err;
    if ((err = cudaMalloc(&s_.pool, std::size_t(pool_blocks) * kBlockWords * 4)) != cudaSuccess ||
        (err = cudaMalloc(&s_.table, std::size_t(kBuckets) * kTableSlots * 4)) != cudaSuccess ||
        (err = cudaMalloc(&s_.wfc, std::size_t(pool_blocks) * kSegmentsPerBlock * 4)) !=
            cudaSuccess ||
        (err = cudaMalloc(&s_.rdc, pool_blocks * 4)) != cudaSuccess ||
        (err = cudaMalloc(&s_.freed, pool_blocks * 4)) != cudaSuccess ||
        (err = cudaMalloc(&s_.resv, kBuckets * kCounterStride * 8)) != cudaSuccess ||
        (err = cudaMalloc(&s_.dwc, kBuckets * kCounterStride * 8)) != cudaSuccess ||
        (err = cudaMalloc(&s_.assignment, std::size_t(workers) * 8)) != cudaSuccess ||
        (err = cudaMalloc(&s_.config, sizeof(Config))) != cudaSuccess ||
        (err = cudaMalloc(&s_.status, sizeof(unsigned))) != cudaSuccess ||
        (err = cudaMalloc(&s_.stats, sizeof(Stats))) != cudaSuccess)
      return err;
    return cudaSuccess;
  }

  void release() {
    cudaFree(s_.pool);
    cudaFree(s_.table);
    cudaFree(s_.wfc);
    cudaFree(s_.rdc);
    cudaFree(s_.freed);
    cudaFree(s_.resv);
    cudaFree(s_.dwc);
    cudaFree(s_.assignment);
    cudaFree(s_.config);
    cudaFree(s_.status);
    cudaFree(s_.stats);
    s_ = Storage{};
  }

  /// Empties the worklist and puts `count` (<= 256) items into bucket 0,
  /// which is where the manager starts. Ordered on `stream`.
  [[nodiscard]] cudaError_t seed(const unsigned *items, unsigned count, cudaStream_t stream = 0) {
    if (count > kSegmentWords)
      return cudaErrorInvalidValue;
    detail::SeedItems seed{};
    seed.count = count;
    for (unsigned i = 0; i < count; ++i)
      seed.items[i] = items[i];
    // Enough threads to clear the 8 MiB block table in a few passes.
    // cudaLaunchKernel, not <<<>>>: the header also compiles where the
    // launch syntax has no runtime behind it (clang --cuda-device-only).
    void *args[] = {&s_, &seed};
    return cudaLaunchKernel(reinterpret_cast<const void *>(&detail::seed_worklist<0>), dim3(512),
                            dim3(256), args, 0, stream);
  }

  const Storage &storage() const { return s_; }

  /// After the launch: how it ended and what the manager counted.
  [[nodiscard]] cudaError_t read(unsigned &status, Stats &stats) const {
    cudaError_t err = cudaMemcpy(&status, s_.status, sizeof(unsigned), cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
      err = cudaMemcpy(&stats, s_.stats, sizeof(Stats), cudaMemcpyDeviceToHost);
    return err;
  }

private:
  Storage s_{};
};

} // namespace dd::buckets

#endif // DD_BUCKET_WORKLIST_CUH
