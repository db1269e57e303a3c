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

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "dd/warp.cuh"
#include "dd/warp_reduce.cuh"

// The manager and the workers wait for each other in spin loops that back off
// with __nanosleep.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
static_assert(__CUDA_ARCH__ >= 700,
              "<dd/bucket_worklist.cuh> needs sm_70 or newer for __nanosleep, the back-off of "
              "its spin loops");
#endif

namespace dd::buckets {

inline constexpr unsigned kBuckets = 32;
inline constexpr unsigned kBlockShift = 16;
inline constexpr unsigned kBlockWords = 1u << kBlockShift; ///< words per data block
inline constexpr unsigned kSegmentShift = 8;
inline constexpr unsigned kSegmentWords = 1u << kSegmentShift; ///< words per WFC
inline constexpr unsigned kSegmentsPerBlock = kBlockWords / kSegmentWords;
inline constexpr unsigned kTableSlots = 1u << 16; ///< block-table entries per bucket
inline constexpr unsigned kMaxPoolBlocks = 8192;  ///< the free bitmask's size (2 GiB)
inline constexpr unsigned kMaxWorkers = 32 * 32;  ///< 32 per assign-warp lane
inline constexpr unsigned kProbeWarps = 8;        ///< buckets probed ahead of the head
inline constexpr unsigned kMinDequeueBuckets = 2; ///< concurrent dequeue buckets
inline constexpr unsigned kMaxDequeueBuckets = 4;
inline constexpr unsigned kMaxItemsPerWarp = 32; ///< assignment grain upper bound
inline constexpr unsigned kUnmapped = 0xffffffffu;
inline constexpr unsigned kCounterStride = 16; ///< u64 counters 128 bytes apart
inline constexpr unsigned long long kTerminate = ~0ull;

/// Run state in device memory; the host reads it after the launch.
enum RunStatus : unsigned {
  kRunning = 0,
  kFinished = 1,      ///< every item was processed
  kPoolExhausted = 2, ///< writers waited for a data block that never came
  kTimedOut = 3,      ///< the manager's deadline passed
};

/// What workers read to place a push: priority p goes to bucket
/// (head + min((p - base) >> shift, 31)) % 32, or to the head when p < base.
struct Config {
  unsigned long long base;
  unsigned head;
  unsigned shift;
};

/// Counters the manager writes when the run ends.
struct Stats {
  unsigned long long assigned;      ///< items handed to workers
  unsigned long long head_switches; ///< times the head bucket moved on
  unsigned long long delta_changes; ///< times Delta was doubled or halved
  unsigned long long final_shift;   ///< log2 of Delta at the end
  unsigned long long max_dequeue;   ///< most concurrent dequeue buckets used
  unsigned long long assignments;   ///< assignments handed to workers
  /// Summed over worker blocks: time spent waiting for an assignment.
  unsigned long long wait_ns;
};

/// Tuning of the manager (defaults from the dissertation, section 5.7).
struct Params {
  unsigned initial_shift = 0;  ///< log2 of the first Delta
  /// Delta grows to at most 2^(initial_shift + max_growth) for utilization
  /// (clipping may take it further). Work a block keeps for itself (see
  /// Worker::offset_of) is invisible to the manager's utilization estimate,
  /// which then keeps asking for a wider head bucket.
  unsigned max_growth = 1;
  /// Concurrent dequeue buckets, at most (kMinDequeueBuckets ..
  /// kMaxDequeueBuckets): more only pays where later buckets hold work
  /// that will not be redone.
  unsigned max_dequeue = kMaxDequeueBuckets;
  unsigned min_grain = 1;      ///< items per warp, at least (power of 2)
  float mean_degree = 1;       ///< work per item, for the utilization estimate
  float util_low = 0.5f;       ///< below: more concurrency (dequeue buckets, Delta)
  float util_high = 2.0f;      ///< above: more work efficiency
  unsigned clip_percent = 65;  ///< tail share that marks a clipping Delta
  unsigned settle_switches = 3; ///< head switches to wait after a Delta change
  unsigned epoch_ns = 20000;   ///< statistics period
  bool dynamic_delta = true;   ///< false: Delta stays 2^initial_shift
  unsigned long long deadline_ns = 0; ///< 0: none; else kTimedOut after it
};

/// Device pointers of one worklist (see the file comment), passed by value.
struct Storage {
  unsigned *pool;
  unsigned pool_blocks;
  unsigned *table;              ///< [kBuckets][kTableSlots] data block or kUnmapped
  unsigned *wfc;                ///< [pool_blocks][kSegmentsPerBlock]
  unsigned *rdc;                ///< [pool_blocks]
  unsigned *freed;              ///< [pool_blocks] 1 once read out
  unsigned long long *resv;     ///< [kBuckets * kCounterStride]
  unsigned long long *dwc;      ///< [kBuckets * kCounterStride]
  unsigned long long *assignment; ///< [workers]
  unsigned workers;
  Config *config;
  unsigned *status;
  Stats *stats;
};

namespace detail {

template <class T> using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;
template <class T> using block_ref = cuda::atomic_ref<T, cuda::thread_scope_block>;

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Assignment flag: [0, 32) first pool word, [32, 43) count (1..1024),
// [43, 48) bucket. Never 0 (count >= 1) and never kTerminate.
__device__ __forceinline__ unsigned long long encode(unsigned start, unsigned count,
                                                     unsigned bucket) {
  return start | (static_cast<unsigned long long>(count) << 32) |
         (static_cast<unsigned long long>(bucket) << 43);
}

__device__ __forceinline__ unsigned status(const Storage &s) {
  return device_ref<unsigned>(*s.status).load(cuda::memory_order_relaxed);
}

/// Sets the status from kRunning to `to` (the first failure wins).
__device__ __forceinline__ void fail(const Storage &s, unsigned to) {
  unsigned expected = kRunning;
  device_ref<unsigned>(*s.status).compare_exchange_strong(expected, to,
                                                          cuda::memory_order_relaxed);
}

__device__ __forceinline__ unsigned &table_entry(const Storage &s, unsigned bucket,
                                                 unsigned long long slot) {
  return s.table[bucket * kTableSlots + static_cast<unsigned>(slot & (kTableSlots - 1))];
}

/// The sum over the full warp: __reduce_add_sync from sm_80 on, shuffles below.
__device__ __forceinline__ unsigned warp_sum(unsigned v) {
  return dd::detail::mask_reduce<dd::ops::add>(full_warp_mask, v);
}

/// Lane 0's value in every lane: loads of words that other warps change may
/// differ between lanes, and the manager's warps branch on them together.
template <class T> __device__ __forceinline__ T uniform(T v) {
  return __shfl_sync(full_warp_mask, v, 0);
}

} // namespace detail

/// One assignment: `count` items at pool[start, start + count), all from one
/// data block of bucket `bucket`.
struct Assignment {
  unsigned start;
  unsigned count;
  unsigned bucket;
};

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
  /// so an L1 line could hold a previous owner's words.
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

/// The manager block: kProbeWarps probe warps, one assign warp, one
/// memory-management warp; needs BlockThreads >= 32 * (kProbeWarps + 2).
template <unsigned BlockThreads> class Manager {
  static_assert(BlockThreads >= warp_size * (kProbeWarps + 2), "too few warps for the roles");
  static constexpr unsigned kWarpsPerWorker = BlockThreads / warp_size;

public:
  struct TempStorage {
    unsigned long long read_ptr[kBuckets];   ///< written by probe warp b % 8 only
    unsigned long long assign_ptr[kBuckets]; ///< assign warp only
    unsigned long long alloc_pos[kBuckets];  ///< memory warp only
    unsigned long long dealloc_pos[kBuckets];
    unsigned assign_slot[kBuckets]; ///< assign warp's translation cache
    unsigned assign_block[kBuckets];
    unsigned free_mask[kMaxPoolBlocks / 32];
    unsigned head;
    unsigned finished;
  };

  __device__ Manager(const Storage &s, TempStorage &temp, const Params &p)
      : s_(s), temp_(temp), p_(p) {}

  /// Block-collective (block 0 of the grid). Returns when the run ended.
  __device__ void run() {
    // Bucket 0's first block (block 0) is mapped and holds the seed items
    // (BucketWorklist::seed); every other block is free.
    for (unsigned b = threadIdx.x; b < kBuckets; b += BlockThreads) {
      temp_.read_ptr[b] = temp_.assign_ptr[b] = temp_.dealloc_pos[b] = 0;
      temp_.alloc_pos[b] = b == 0 ? kBlockWords : 0;
      temp_.assign_slot[b] = kUnmapped;
    }
    for (unsigned w = threadIdx.x; w < kMaxPoolBlocks / 32; w += BlockThreads) {
      const unsigned first = w * 32;
      unsigned bits = 0;
      for (unsigned i = 0; i < 32; ++i)
        if (first + i != 0 && first + i < s_.pool_blocks)
          bits |= 1u << i;
      temp_.free_mask[w] = bits;
    }
    if (threadIdx.x == 0) {
      temp_.head = 0;
      temp_.finished = 0;
    }
    __syncthreads();
    const unsigned warp = threadIdx.x / warp_size;
    if (warp < kProbeWarps)
      probe(warp);
    else if (warp == kProbeWarps)
      assign();
    else if (warp == kProbeWarps + 1)
      manage_memory();
  }

private:
  /// Warp-uniform.
  __device__ bool finished() const {
    return detail::uniform(
               detail::block_ref<unsigned>(temp_.finished).load(cuda::memory_order_relaxed)) != 0;
  }

  /// Probe warp k: validates the bucket b of [head, head + 8) with
  /// b % 8 == k, 128 segments per round, and publishes read_ptr[b]. One
  /// writer per bucket, so `start` is never stale and the blocks it looks
  /// at cannot be freed under it.
  __device__ void probe(unsigned k) {
    constexpr unsigned kRounds = 4;
    const unsigned lane = lane_id();
    unsigned bucket = kUnmapped;
    unsigned long long cached_slot = ~0ull;
    unsigned cached_block = kUnmapped;
    unsigned ns = 32;
    while (!finished()) {
      const unsigned head = detail::uniform(
          detail::block_ref<unsigned>(temp_.head).load(cuda::memory_order_relaxed));
      const unsigned b = (head + ((k - head) % kProbeWarps)) % kBuckets;
      if (b != bucket) {
        bucket = b;
        cached_slot = ~0ull;
      }
      detail::block_ref<unsigned long long> read_ptr(temp_.read_ptr[b]);
      const unsigned long long start = read_ptr.load(cuda::memory_order_relaxed);
      detail::device_ref<unsigned long long> resv(s_.resv[b * kCounterStride]);
      // Counts first, whatever resv is: one round trip less per round than
      // reading resv to pick the segments (counts of unreserved segments
      // read 0 and change nothing below).
      const unsigned long long first_segment = start >> kSegmentShift;
      unsigned count[kRounds];
#pragma unroll
      for (unsigned r = 0; r < kRounds; ++r) {
        const unsigned long long segment = first_segment + r * warp_size + lane;
        const unsigned long long pos = segment << kSegmentShift;
        count[r] = 0;
        const unsigned long long slot = pos >> kBlockShift;
        if (slot != cached_slot) {
          const unsigned block = detail::device_ref<unsigned>(detail::table_entry(s_, b, slot))
                                     .load(cuda::memory_order_acquire);
          if (block == kUnmapped)
            continue;
          cached_slot = slot;
          cached_block = block;
        }
        count[r] = detail::device_ref<unsigned>(
                       s_.wfc[cached_block * kSegmentsPerBlock +
                              static_cast<unsigned>(segment & (kSegmentsPerBlock - 1))])
                       .load(cuda::memory_order_acquire);
      }
      // resv after the counts: a count equal to the reservations it covers
      // then means they are all written.
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
      const unsigned long long reserved_after =
          detail::uniform(resv.load(cuda::memory_order_relaxed));
      if (reserved_after == start) {
        __nanosleep(ns);
        ns = ns < 128 ? ns * 2 : ns;
        continue;
      }
      ns = 32;
      unsigned long long valid_end = (first_segment + kRounds * warp_size) << kSegmentShift;
#pragma unroll
      for (unsigned r = 0; r < kRounds; ++r) {
        const unsigned full = __ballot_sync(full_warp_mask, count[r] == kSegmentWords);
        if (full == full_warp_mask)
          continue;
        const unsigned first_lane = __ffs(~full) - 1;
        const unsigned long long pos =
            (first_segment + r * warp_size + first_lane) << kSegmentShift;
        const unsigned c = __shfl_sync(full_warp_mask, count[r], first_lane);
        const unsigned long long in_segment =
            reserved_after > pos ? reserved_after - pos : 0;
        const unsigned long long expected = in_segment < kSegmentWords ? in_segment : kSegmentWords;
        valid_end = pos + (c == expected ? c : 0);
        break;
      }
      if (valid_end > start) {
        __syncwarp();
        if (lane == 0)
          read_ptr.store(valid_end, cuda::memory_order_release);
      }
    }
  }

  /// The memory-management warp: lane b maps data blocks two ahead of
  /// bucket b's reservations and takes back the blocks workers freed.
  __device__ void manage_memory() {
    const unsigned lane = lane_id();
    const unsigned words = (s_.pool_blocks + 31) / 32;
    unsigned long long starving_since = 0;
    unsigned ns = 64;
    while (!finished()) {
      bool progress = false;
      // Take back freed blocks, in FIFO order per bucket.
      for (;;) {
        const unsigned long long pos = temp_.dealloc_pos[lane];
        if (pos >= temp_.alloc_pos[lane])
          break;
        unsigned &entry = detail::table_entry(s_, lane, pos >> kBlockShift);
        const unsigned block = entry;
        detail::device_ref<unsigned> freed(s_.freed[block]);
        if (freed.load(cuda::memory_order_acquire) == 0)
          break;
        freed.store(0, cuda::memory_order_relaxed);
        detail::device_ref<unsigned>(entry).store(kUnmapped, cuda::memory_order_relaxed);
        atomicOr(&temp_.free_mask[block / 32], 1u << (block % 32));
        temp_.dealloc_pos[lane] = pos + kBlockWords;
        progress = true;
      }
      __syncwarp();
      // Map blocks where fewer than two lie ahead of the reservations.
      const unsigned long long reserved =
          detail::device_ref<unsigned long long>(s_.resv[lane * kCounterStride])
              .load(cuda::memory_order_relaxed);
      const bool needs = temp_.alloc_pos[lane] < reserved + 2 * kBlockWords;
      const bool starving = temp_.alloc_pos[lane] <= reserved;
      unsigned needy = __ballot_sync(full_warp_mask, needs);
      bool exhausted = false;
      while (needy != 0) {
        const unsigned b = __ffs(needy) - 1;
        needy &= needy - 1;
        unsigned found_word = kUnmapped, bits = 0;
        for (unsigned w = lane; w < words; w += warp_size) {
          bits = temp_.free_mask[w];
          if (bits != 0) {
            found_word = w;
            break;
          }
        }
        const unsigned with_free = __ballot_sync(full_warp_mask, found_word != kUnmapped);
        if (with_free == 0) {
          exhausted = true;
          break;
        }
        if (lane == __ffs(with_free) - 1) {
          const unsigned bit = __ffs(bits) - 1;
          temp_.free_mask[found_word] = bits & ~(1u << bit);
          const unsigned block = found_word * 32 + bit;
          const unsigned long long pos = temp_.alloc_pos[b];
          detail::device_ref<unsigned>(detail::table_entry(s_, b, pos >> kBlockShift))
              .store(block, cuda::memory_order_release);
          temp_.alloc_pos[b] = pos + kBlockWords;
        }
        __syncwarp();
        progress = true;
      }
      // Writers waiting while no block is free, for a whole second: every
      // block holds unread items that only those writers' blocks would
      // consume.
      if (exhausted && __any_sync(full_warp_mask, starving)) {
        const unsigned long long now = detail::global_ns();
        if (starving_since == 0)
          starving_since = now;
        else if (now - starving_since > 1000000000ull && lane == 0)
          detail::fail(s_, kPoolExhausted);
      } else {
        starving_since = 0;
      }
      if (!progress) {
        __nanosleep(ns);
        ns = ns < 512 ? ns * 2 : ns;
      } else {
        ns = 64;
      }
    }
  }

  /// The assign warp: hands validated items of the concurrent dequeue
  /// buckets to idle workers, moves the head on, sets Delta, and ends the
  /// run.
  __device__ void assign();

  /// Writes kTerminate to every worker, the stats, and ends the manager.
  __device__ void finish(unsigned status, unsigned long long assigned,
                         unsigned long long assignments, unsigned long long switches,
                         unsigned long long changes, unsigned shift, unsigned max_dequeue) {
    const unsigned lane = lane_id();
    if (lane == 0) {
      if (status == kFinished)
        detail::device_ref<unsigned>(*s_.status).store(kFinished, cuda::memory_order_relaxed);
      // Field by field: workers add their wait_ns as they leave.
      s_.stats->assigned = assigned;
      s_.stats->assignments = assignments;
      s_.stats->head_switches = switches;
      s_.stats->delta_changes = changes;
      s_.stats->final_shift = shift;
      s_.stats->max_dequeue = max_dequeue;
    }
    for (unsigned w = lane; w < s_.workers; w += warp_size)
      detail::device_ref<unsigned long long>(s_.assignment[w])
          .store(kTerminate, cuda::memory_order_relaxed);
    if (lane == 0)
      detail::block_ref<unsigned>(temp_.finished).store(1, cuda::memory_order_relaxed);
  }

  Storage s_;
  TempStorage &temp_;
  Params p_;
};

template <unsigned BlockThreads> __device__ void Manager<BlockThreads>::assign() {
  const unsigned lane = lane_id();
  const unsigned long long started = detail::uniform(detail::global_ns());
  unsigned head = 0;
  unsigned long long base = 0;
  unsigned shift = p_.initial_shift, lower_shift = 0;
  unsigned dequeue = kMinDequeueBuckets, max_dequeue = dequeue;
  unsigned long long assigned = 0, assignments = 0, switches = 0, changes = 0,
                     changed_at_switch = 0;
  // Statistics: lane b remembers resv[b] at the last epoch.
  unsigned long long epoch_start = started, last_resv = 0;
  float util_history[4] = {1, 1, 1, 1};
  unsigned history_next = 0;
  bool skip_epoch = false;
  const float worker_threads = float(s_.workers) * BlockThreads;

  const auto publish = [&] {
    if (lane == 0) {
      detail::device_ref<unsigned long long>(s_.config->base).store(base, cuda::memory_order_relaxed);
      detail::device_ref<unsigned>(s_.config->head).store(head, cuda::memory_order_relaxed);
      detail::device_ref<unsigned>(s_.config->shift).store(shift, cuda::memory_order_relaxed);
    }
  };
  publish();
  unsigned ns = 32;
  for (;;) {
    if (detail::uniform(detail::status(s_)) != kRunning) {
      finish(kRunning, assigned, assignments, switches, changes, shift, max_dequeue);
      return;
    }
    // Work of the dequeue buckets, each up to the end of its current data
    // block (an assignment never crosses one).
    unsigned long long avail[kMaxDequeueBuckets], ptr[kMaxDequeueBuckets];
    unsigned block_of[kMaxDequeueBuckets];
    unsigned long long total = 0;
#pragma unroll
    for (unsigned k = 0; k < kMaxDequeueBuckets; ++k) {
      avail[k] = 0;
      ptr[k] = 0;
      block_of[k] = 0;
      if (k >= dequeue)
        continue;
      const unsigned b = (head + k) % kBuckets;
      ptr[k] = temp_.assign_ptr[b];
      const unsigned long long ready = detail::uniform(
          detail::block_ref<unsigned long long>(temp_.read_ptr[b]).load(cuda::memory_order_acquire));
      const unsigned long long block_end = (ptr[k] | (kBlockWords - 1)) + 1;
      const unsigned long long end = ready < block_end ? ready : block_end;
      if (end <= ptr[k])
        continue;
      const unsigned slot = static_cast<unsigned>(ptr[k] >> kBlockShift);
      if (temp_.assign_slot[b] != slot) {
        const unsigned block = detail::uniform(
            detail::device_ref<unsigned>(detail::table_entry(s_, b, slot))
                .load(cuda::memory_order_acquire));
        __syncwarp();
        if (lane == 0) {
          temp_.assign_slot[b] = slot;
          temp_.assign_block[b] = block;
        }
        __syncwarp();
      }
      block_of[k] = temp_.assign_block[b];
      avail[k] = end - ptr[k];
      total += avail[k];
    }

    unsigned long long handed = 0;
    if (total > 0) {
      // Idle workers: lane l looks after workers l, l + 32, ...
      unsigned idle = 0;
      for (unsigned j = 0, w = lane; w < s_.workers; ++j, w += warp_size)
        if (detail::device_ref<unsigned long long>(s_.assignment[w])
                .load(cuda::memory_order_relaxed) == 0)
          idle |= 1u << j;
      const unsigned mine = __popc(idle);
      const unsigned idle_total = detail::warp_sum(mine);
      if (idle_total > 0) {
        // Items per warp: a power of 2 that spreads the work over the idle
        // workers, within [min_grain, 32].
        const unsigned long long per_warp =
            total / (static_cast<unsigned long long>(idle_total) * kWarpsPerWorker);
        unsigned grain = p_.min_grain;
        while (grain * 2 <= kMaxItemsPerWarp && grain * 2 <= per_warp)
          grain *= 2;
        const unsigned long long size = static_cast<unsigned long long>(grain) * kWarpsPerWorker;
        unsigned long long pieces[kMaxDequeueBuckets], before[kMaxDequeueBuckets];
        unsigned long long all_pieces = 0;
#pragma unroll
        for (unsigned k = 0; k < kMaxDequeueBuckets; ++k) {
          before[k] = all_pieces;
          pieces[k] = (avail[k] + size - 1) / size;
          all_pieces += pieces[k];
        }
        const unsigned long long given = all_pieces < idle_total ? all_pieces : idle_total;
        // This lane's idle workers take pieces [rank, rank + mine).
        unsigned rank = mine;
#pragma unroll
        for (unsigned d = 1; d < warp_size; d *= 2) {
          const unsigned v = __shfl_up_sync(full_warp_mask, rank, d);
          if (lane >= d)
            rank += v;
        }
        rank -= mine;
        for (unsigned bits = idle; bits != 0 && rank < given; bits &= bits - 1, ++rank) {
          const unsigned j = __ffs(bits) - 1;
          unsigned k = 0;
          while (k + 1 < kMaxDequeueBuckets && rank >= before[k] + pieces[k])
            ++k;
          const unsigned long long pos = ptr[k] + (rank - before[k]) * size;
          const unsigned long long left = avail[k] - (pos - ptr[k]);
          const unsigned count = static_cast<unsigned>(left < size ? left : size);
          const unsigned start = (block_of[k] << kBlockShift) |
                                 static_cast<unsigned>(pos & (kBlockWords - 1));
          detail::device_ref<unsigned long long>(s_.assignment[lane + j * warp_size])
              .store(detail::encode(start, count, (head + k) % kBuckets),
                     cuda::memory_order_release);
        }
        __syncwarp();
#pragma unroll
        for (unsigned k = 0; k < kMaxDequeueBuckets; ++k) {
          if (given <= before[k])
            continue;
          const unsigned long long taken = given - before[k];
          const unsigned long long amount = taken >= pieces[k] ? avail[k] : taken * size;
          handed += amount;
          if (lane == 0)
            temp_.assign_ptr[(head + k) % kBuckets] = ptr[k] + amount;
        }
        __syncwarp();
        assigned += handed;
        assignments += given;
      }
    }

    // The head moves on once everything reserved in it was handed out and
    // done; before that, if nothing is left anywhere, the run is over.
    if (handed == 0) {
      bool moved = false;
      const unsigned hb = head;
      if (temp_.assign_ptr[hb] ==
          detail::uniform(detail::block_ref<unsigned long long>(temp_.read_ptr[hb])
                              .load(cuda::memory_order_relaxed))) {
        const unsigned long long done = detail::uniform(
            detail::device_ref<unsigned long long>(s_.dwc[hb * kCounterStride])
                .load(cuda::memory_order_acquire));
        cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        const unsigned long long reserved = detail::uniform(
            detail::device_ref<unsigned long long>(s_.resv[hb * kCounterStride])
                .load(cuda::memory_order_relaxed));
        if (done == reserved && reserved == temp_.assign_ptr[hb]) {
          if (total == 0) {
            // Done counts first, reservations second (see the file comment).
            const unsigned long long d =
                detail::device_ref<unsigned long long>(s_.dwc[lane * kCounterStride])
                    .load(cuda::memory_order_acquire);
            __syncwarp();
            cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
            const unsigned long long r =
                detail::device_ref<unsigned long long>(s_.resv[lane * kCounterStride])
                    .load(cuda::memory_order_relaxed);
            if (__all_sync(full_warp_mask, d == r)) {
              finish(kFinished, assigned, assignments, switches, changes, shift, max_dequeue);
              return;
            }
          }
          head = (head + 1) % kBuckets;
          const unsigned long long delta = 1ull << shift;
          base = base < ~0ull - delta ? base + delta : ~0ull;
          ++switches;
          moved = true;
          __syncwarp();
          if (lane == 0)
            detail::block_ref<unsigned>(temp_.head).store(head, cuda::memory_order_relaxed);
          publish();
        }
      }
      if (!moved) {
        __nanosleep(ns);
        ns = ns < 64 ? ns * 2 : ns;
      }
    } else {
      ns = 32;
    }

    // Statistics, once per epoch: the clip point and the utilization.
    const unsigned long long now = detail::uniform(detail::global_ns());
    if (p_.deadline_ns != 0 && now - started > p_.deadline_ns) {
      if (lane == 0)
        detail::fail(s_, kTimedOut);
      continue;
    }
    if (!p_.dynamic_delta || now - epoch_start < p_.epoch_ns)
      continue;
    epoch_start = now;
    const unsigned long long r =
        detail::device_ref<unsigned long long>(s_.resv[lane * kCounterStride])
            .load(cuda::memory_order_relaxed);
    const unsigned long long d =
        detail::device_ref<unsigned long long>(s_.dwc[lane * kCounterStride])
            .load(cuda::memory_order_relaxed);
    const unsigned long long pushed = r - last_resv;
    last_resv = r;
    const unsigned long long pushed_all = detail::warp_sum(
        static_cast<unsigned>(pushed < 0xffffffffull ? pushed : 0xffffffffull));
    const unsigned long long pushed_tail =
        __shfl_sync(full_warp_mask, pushed, (head + kBuckets - 1) % kBuckets);
    unsigned long long done_all = d;
#pragma unroll
    for (unsigned o = 16; o > 0; o /= 2)
      done_all += __shfl_xor_sync(full_warp_mask, done_all, o);
    const float outstanding = assigned > done_all ? float(assigned - done_all) : 0.0f;
    const float util = outstanding * p_.mean_degree / worker_threads;
    util_history[history_next] = util;
    history_next = (history_next + 1) % 4;
    if (skip_epoch) {
      // A new Delta needs an epoch to show in the counts.
      skip_epoch = false;
      continue;
    }
    const float mean_util =
        (util_history[0] + util_history[1] + util_history[2] + util_history[3]) / 4;
    const bool settled = switches - changed_at_switch >= p_.settle_switches;
    unsigned new_shift = shift;
    if (pushed_all >= 1024 && pushed_tail * 100 > pushed_all * p_.clip_percent) {
      // Clipping: most pushes land in the tail. The next Delta up is the
      // lowest worth using.
      if (shift < 62)
        new_shift = shift + 1;
      lower_shift = new_shift;
    } else if (util < p_.util_low) {
      if (dequeue < p_.max_dequeue)
        ++dequeue;
      else if (mean_util < p_.util_low && settled && shift < 62 &&
               shift < p_.initial_shift + p_.max_growth)
        new_shift = shift + 1;
    } else if (util > p_.util_high) {
      if (dequeue > kMinDequeueBuckets)
        --dequeue;
      else if (mean_util > p_.util_high && settled && shift > lower_shift)
        new_shift = shift - 1;
    }
    max_dequeue = dequeue > max_dequeue ? dequeue : max_dequeue;
    if (new_shift != shift) {
      shift = new_shift;
      ++changes;
      changed_at_switch = switches;
      skip_epoch = true;
      publish();
    }
  }
}

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
