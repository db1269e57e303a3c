//===- dd/detail/bucket_common.cuh - Sizes, parameters and storage of the bucketed worklist -*- CUDA -*-===//
//
// Part of <dd/bucket_worklist.cuh>; include that (its comment describes the
// worklist). Split the way CUB splits its long headers: one part per role.
//
//===----------------------------------------------------------------------===//
#ifndef DD_DETAIL_BUCKET_COMMON_CUH
#define DD_DETAIL_BUCKET_COMMON_CUH

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
  /// The manager's first assignment, and the end of the run, in ns after
  /// the manager started (the kernel's own time, without its launch).
  unsigned long long first_assignment_ns;
  unsigned long long run_ns;
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

} // namespace dd::buckets

#endif // DD_DETAIL_BUCKET_COMMON_CUH
