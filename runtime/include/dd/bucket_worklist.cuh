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

#include <cstdint>

#include <cuda_runtime.h>

// The parts (CUB-style): sizes, Config, Stats, Params and Storage; the worker
// blocks' side; the manager block.
#include "dd/detail/bucket_common.cuh"
#include "dd/detail/bucket_manager.cuh"
#include "dd/detail/bucket_worker.cuh"

namespace dd::buckets {

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
    cudaError_t err;
    const unsigned long long seeded = count;
    const unsigned first_block = 0;
    if ((err = cudaMemsetAsync(s_.table, 0xff, std::size_t(kBuckets) * kTableSlots * 4, stream)) !=
            cudaSuccess ||
        (err = cudaMemsetAsync(s_.wfc, 0, std::size_t(s_.pool_blocks) * kSegmentsPerBlock * 4,
                               stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(s_.rdc, 0, s_.pool_blocks * 4, stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(s_.freed, 0, s_.pool_blocks * 4, stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(s_.resv, 0, kBuckets * kCounterStride * 8, stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(s_.dwc, 0, kBuckets * kCounterStride * 8, stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(s_.assignment, 0, std::size_t(s_.workers) * 8, stream)) !=
            cudaSuccess ||
        (err = cudaMemsetAsync(s_.config, 0, sizeof(Config), stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(s_.status, 0, sizeof(unsigned), stream)) != cudaSuccess ||
        (err = cudaMemsetAsync(s_.stats, 0, sizeof(Stats), stream)) != cudaSuccess)
      return err;
    if (count == 0)
      return cudaSuccess;
    // Bucket 0's slot 0 is data block 0, holding the items in segment 0.
    if ((err = cudaMemcpyAsync(s_.table, &first_block, 4, cudaMemcpyHostToDevice, stream)) !=
            cudaSuccess ||
        (err = cudaMemcpyAsync(s_.pool, items, count * 4, cudaMemcpyHostToDevice, stream)) !=
            cudaSuccess ||
        (err = cudaMemcpyAsync(s_.wfc, &count, 4, cudaMemcpyHostToDevice, stream)) !=
            cudaSuccess ||
        (err = cudaMemcpyAsync(s_.resv, &seeded, 8, cudaMemcpyHostToDevice, stream)) !=
            cudaSuccess)
      return err;
    // The copies read host memory that may be on the caller's stack.
    return cudaStreamSynchronize(stream);
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
