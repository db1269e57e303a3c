//===- dd/detail/bucket_worker.cuh - A worker block's side of the bucketed worklist -*- CUDA -*-===//
//
// Part of <dd/bucket_worklist.cuh>; include that (its comment describes the
// worklist). Split the way CUB splits its long headers: one part per role.
//
//===----------------------------------------------------------------------===//
#ifndef DD_DETAIL_BUCKET_WORKER_CUH
#define DD_DETAIL_BUCKET_WORKER_CUH

#include "dd/detail/bucket_common.cuh"

namespace dd::buckets {
/// A worker block's side of the worklist.
///
/// @tparam BlockThreads  threads per block; an assignment has at most
///                       BlockThreads items (one per thread)
template <unsigned BlockThreads> class Worker {
  static_assert(BlockThreads % warp_size == 0 && BlockThreads <= 1024, "whole warps");
  static_assert(BlockThreads >= 2 * warp_size, "thread warp_size does the counting");

public:
  /// Shared memory of a worker block (declare it __shared__).
  struct TempStorage {
    /// Translation cache: 4 direct-mapped (slot << 32 | block) per bucket.
    unsigned long long cache[kBuckets * 4];
    unsigned long long assignment;
    unsigned long long base;
    unsigned head;
    unsigned shift;
  };

  /// Block-collective. `index` is the block's number among the workers.
  __device__ Worker(const Storage &s, TempStorage &temp, unsigned index)
      : s_(s), temp_(temp), index_(index) {
    for (unsigned i = threadIdx.x; i < kBuckets * 4; i += BlockThreads)
      temp_.cache[i] = ~0ull;
    __syncthreads();
  }

  /// Block-collective: waits for the next assignment. False once the
  /// worklist is finished (or the run failed: see RunStatus).
  __device__ bool next(Assignment &a) {
    if (threadIdx.x == 0) {
      detail::device_ref<unsigned long long> flag(s_.assignment[index_]);
      unsigned long long word;
      unsigned ns = 32;
      const unsigned long long waiting_since = detail::global_ns();
      while ((word = flag.load(cuda::memory_order_relaxed)) == 0) {
        if (detail::status(s_) != kRunning) {
          word = kTerminate;
          break;
        }
        // A short cap: on a high-diameter graph every hop of the search
        // waits here once.
        __nanosleep(ns);
        ns = ns < 128 ? ns * 2 : ns;
      }
      if (word != kTerminate) {
        // Pairs with the manager's release store of the flag, which follows
        // its acquire of the segments' write counts: the items are visible.
        cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        flag.store(0, cuda::memory_order_relaxed);
      }
      wait_ns_ += detail::global_ns() - waiting_since;
      if (word == kTerminate)
        detail::device_ref<unsigned long long>(s_.stats->wait_ns)
            .fetch_add(wait_ns_, cuda::memory_order_relaxed);
      temp_.assignment = word;
    } else if (threadIdx.x == warp_size && pending_count_ != 0) {
      // The previous assignment's counts, while thread 0 polls.
      count_done(pending_start_, pending_count_, pending_bucket_);
      pending_count_ = 0;
    }
    __syncthreads();
    const unsigned long long word = temp_.assignment;
    if (word == kTerminate)
      return false;
    a.start = static_cast<unsigned>(word);
    a.count = static_cast<unsigned>(word >> 32) & 0x7ffu;
    a.bucket = static_cast<unsigned>(word >> 43) & 0x1fu;
    return true;
  }

  /// Block-collective, after next() and before the first push of the
  /// assignment, with a __syncthreads between: loads where pushes go. Off
  /// the critical path (one thread, overlapped with the items' loads).
  /// Placement may lag the manager: any bucket is correct, only the order
  /// of work suffers.
  __device__ __forceinline__ void load_placement() {
    if (threadIdx.x != warp_size)
      return;
    temp_.base =
        detail::device_ref<unsigned long long>(s_.config->base).load(cuda::memory_order_relaxed);
    temp_.head = detail::device_ref<unsigned>(s_.config->head).load(cuda::memory_order_relaxed);
    temp_.shift = detail::device_ref<unsigned>(s_.config->shift).load(cuda::memory_order_relaxed);
  }

  /// The bucket `priority` goes to, counted from the head (0..31, as of
  /// load_placement()): lower is sooner.
  __device__ __forceinline__ unsigned bucket_offset(unsigned long long priority) const {
    if (priority <= temp_.base)
      return 0;
    const unsigned long long k = (priority - temp_.base) >> temp_.shift;
    return k < kBuckets - 1 ? static_cast<unsigned>(k) : kBuckets - 1;
  }

  /// How far `bucket` is from the head (as of load_placement()), in the
  /// units of bucket_offset(). An item whose bucket_offset() is no more than
  /// this for a bucket being dequeued may be processed at once by the block
  /// that made it: delta-stepping leaves the order within the dequeued
  /// buckets free. Both offsets count from the same head, so a stale
  /// placement still compares priorities with the bucket's true upper end.
  __device__ __forceinline__ unsigned offset_of(unsigned bucket) const {
    return (bucket + kBuckets - temp_.head) % kBuckets;
  }

  /// Item i < a.count of the assignment. An L2 load: data blocks are reused,
  /// so an L1 line could hold a previous owner's words. The manager sizes an
  /// assignment as Params::min_grain (or more) items *per warp*, so a block
  /// should spread the items over its warps (item i to warp i % warps, as
  /// apps/sssp/adds.cu does), not give item i to thread i: that left 14 of
  /// 16 warps idle on assignments of 64 (docs/sssp.md).
  __device__ __forceinline__ unsigned item(const Assignment &a, unsigned i) const {
    return __ldcg(s_.pool + a.start + i);
  }

  /// Pushes `item` with `priority`. Any set of lanes, divergent code; lanes
  /// of a warp pushing to the same bucket reserve together with one atomic.
  __device__ void push(unsigned item, unsigned long long priority) {
    const unsigned bucket = (temp_.head + bucket_offset(priority)) % kBuckets;
    const unsigned active = __activemask();
    const unsigned group = __match_any_sync(active, bucket);
    const unsigned leader = __ffs(group) - 1;
    unsigned long long first = 0;
    if (lane_id() == leader)
      first = detail::device_ref<unsigned long long>(s_.resv[bucket * kCounterStride])
                  .fetch_add(__popc(group), cuda::memory_order_relaxed);
    const unsigned long long pos = __shfl_sync(group, first, leader) + rank_in(group);
    const unsigned block = translate(bucket, pos >> kBlockShift);
    if (block != kUnmapped)
      s_.pool[(static_cast<unsigned long long>(block) << kBlockShift) |
              (pos & (kBlockWords - 1))] = item;
    // The barrier orders every lane's item store before the leader's
    // release (bar.warp.sync orders memory among its threads).
    __syncwarp(group);
    const unsigned segment_group = __match_any_sync(group, pos >> kSegmentShift);
    if (block != kUnmapped && is_lowest_lane_of(segment_group))
      detail::device_ref<unsigned>(
          s_.wfc[block * kSegmentsPerBlock + ((pos >> kSegmentShift) & (kSegmentsPerBlock - 1))])
          .fetch_add(__popc(segment_group), cuda::memory_order_release);
  }

  /// Block-collective, after the assignment's items were processed (and all
  /// their pushes made): counts them done and read. Thread warp_size does
  /// it during the next next(), while thread 0 polls for the assignment
  /// (the barrier between orders every push before the counts).
  __device__ void complete(const Assignment &a) {
    __syncthreads();
    if (threadIdx.x == warp_size) {
      pending_start_ = a.start;
      pending_count_ = a.count;
      pending_bucket_ = a.bucket;
    }
  }

private:
  __device__ void count_done(unsigned start, unsigned count, unsigned bucket) {
    detail::device_ref<unsigned long long>(s_.dwc[bucket * kCounterStride])
        .fetch_add(count, cuda::memory_order_release);
    const unsigned block = start >> kBlockShift;
    const unsigned read = detail::device_ref<unsigned>(s_.rdc[block])
                              .fetch_add(count, cuda::memory_order_acq_rel) +
                          count;
    if (read != kBlockWords)
      return;
    // Every word of the block was read (so written and counted): reset its
    // counters, then hand it back (the manager acquires `freed`).
    for (unsigned i = 0; i < kSegmentsPerBlock; ++i)
      detail::device_ref<unsigned>(s_.wfc[block * kSegmentsPerBlock + i])
          .store(0, cuda::memory_order_relaxed);
    detail::device_ref<unsigned>(s_.rdc[block]).store(0, cuda::memory_order_relaxed);
    detail::device_ref<unsigned>(s_.freed[block]).store(1, cuda::memory_order_release);
  }

  /// The data block of `slot` of `bucket`, through the block's translation
  /// cache; waits for the manager to map it. kUnmapped if the run failed.
  __device__ unsigned translate(unsigned bucket, unsigned long long slot) {
    detail::block_ref<unsigned long long> entry(temp_.cache[bucket * 4 + (slot & 3)]);
    const unsigned long long cached = entry.load(cuda::memory_order_relaxed);
    const unsigned tag = static_cast<unsigned>(slot);
    if (static_cast<unsigned>(cached >> 32) == tag)
      return static_cast<unsigned>(cached);
    detail::device_ref<unsigned> mapped(detail::table_entry(s_, bucket, slot));
    unsigned block;
    unsigned ns = 32;
    while ((block = mapped.load(cuda::memory_order_acquire)) == kUnmapped) {
      if (detail::status(s_) != kRunning)
        return kUnmapped;
      __nanosleep(ns);
      ns = ns < 1024 ? ns * 2 : ns;
    }
    entry.store((static_cast<unsigned long long>(tag) << 32) | block,
                cuda::memory_order_relaxed);
    return block;
  }

  Storage s_;
  TempStorage &temp_;
  unsigned index_;
  // Thread warp_size's record of the assignment complete() has not counted.
  unsigned pending_start_ = 0, pending_count_ = 0, pending_bucket_ = 0;
  unsigned long long wait_ns_ = 0; // thread 0: time in next() so far
};

} // namespace dd::buckets

#endif // DD_DETAIL_BUCKET_WORKER_CUH
