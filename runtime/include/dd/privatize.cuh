//===- dd/privatize.cuh - Block-private copies of a global array -*- CUDA -*-===//
//
// Privatization: a kernel whose threads update a small global array with
// atomics (a histogram: `atomicAdd(&bins[key], 1)`) gives each thread block
// its own copy of the array in shared memory, updates the copy, and merges
// it into the global array once, at the end, with one atomic per bin the
// block touched. Global atomics on a few hot words serialize in the L2 for
// the whole GPU; shared-memory atomics serialize only within one SM, and the
// merge costs at most `range` global atomics per block. The decoupler atomics
// pass rewrites kernels into this shape (docs/atomics.md); it is also meant
// to be written by hand:
//
//   __global__ void histogram(const unsigned *keys, size_t n, unsigned *bins,
//                             unsigned nbins) {
//     __shared__ unsigned storage[dd::private_capacity<unsigned>];
//     dd::block_private<dd::ops::add, unsigned> hist(storage,
//         dd::private_capacity<unsigned>, bins, nbins, /*per_thread=*/16);
//     for (size_t i = ...; i < n; i += ...)
//       hist.update(keys[i], 1u);              // was atomicAdd(&bins[keys[i]], 1u)
//     hist.flush();
//   }
//
// Exactness: the effect on the global array is that of every update issued
// as its own atomic, for any index (an index outside [0, range) goes to the
// global array directly, so a wrong range costs speed, never results), for
// add, sub, min, max, and, or, xor on the integer types CUDA has atomics for.
// Floating-point add is reordered (the block's partial sums are added to the
// global word), as with the warp-aggregated variants (atomics.cuh).
//
// What the caller must guarantee (the pass proves it before rewriting):
//   - every thread of the block constructs the object and calls flush(),
//     both in block-uniform control flow (they hold __syncthreads());
//   - between the two, the kernel does not read or write the global array
//     other than through update() (the merged values appear only at flush);
//   - update()'s results are not used (it returns nothing).
//
// Whether the block privatizes is decided once, when the object is built,
// and is the same for every thread of the block: only when `range` fits the
// storage and is at most `per_thread` words per thread of the block, so that
// clearing and merging the copy costs no more than `per_thread` shared-memory
// words per thread.
//
// Otherwise (the range is too large, or unknown: dd::unknown_range) the
// storage becomes a cache of hot indices: DD_PRIVATE_HOT_SLOTS slots per
// thread in sets of DD_PRIVATE_HOT_WAYS; an index hashes to a set and takes
// its first free slot, which keeps that index's partial result for the rest
// of the block's life; an update whose set other indices fill goes to the
// global array as dd::atomic_OP_vr (the pass's choice without
// privatization). The indices that recur within a block (the hot ones,
// which serialize in the L2 for the whole GPU) are the ones likely to hold
// a slot, and a flushed slot carries at least one update, so the block never
// issues more global atomics than as written.
//
//===----------------------------------------------------------------------===//
#ifndef DD_PRIVATIZE_CUH
#define DD_PRIVATIZE_CUH

#include <cuda/atomic>
#include <cuda/std/type_traits>

#include "dd/atomic_ops.cuh"
#include "dd/atomics.cuh"

/// Shared-memory bytes the atomics pass gives one privatized array whose
/// range is known only at launch (a kernel parameter). Static shared memory:
/// a kernel's total must stay within 48 KiB, and each KiB costs occupancy
/// once blocks are small (16 KiB lets 14 blocks share an H100/H200 SM).
#ifndef DD_PRIVATE_BYTES
#define DD_PRIVATE_BYTES 16384
#endif

/// Ranges below this many words update the shared copy with warp
/// aggregation (vote and reduce, atomics.cuh) instead of plain shared-memory
/// atomics. Off (0) by default: measured on an H100 (docs/PERF.md), 64 made
/// the 1-bin histogram 2.3x and the 32-bin one 6x slower than plain
/// shared-memory atomics, which the SM already serves fast.
#ifndef DD_PRIVATE_VOTE_BELOW
#define DD_PRIVATE_VOTE_BELOW 0
#endif

/// Most copies of a small range one block keeps (warp w updates copy
/// w % copies), so that warps of one block do not queue on the same shared
/// words. The copies are summed at flush. 1 (the default) keeps one copy per
/// block: 8 copies measured no faster on an H100 (0.042 against 0.044 ms at
/// 8 bins, 0.051 against 0.046 at 1 bin; docs/PERF.md).
#ifndef DD_PRIVATE_MAX_COPIES
#define DD_PRIVATE_MAX_COPIES 1
#endif

/// Hot-index cache slots per thread of the block, when the range does not
/// fit (0: no cache, every update of such a block is dd::atomic_OP_vr).
/// Clearing and merging the cache costs about 2 * DD_PRIVATE_HOT_SLOTS
/// shared-memory words per thread. Measured on an H100 (docs/PERF.md), a
/// grid-stride histogram of Zipf keys over 65536 bins: 1.05, 0.71 and 0.50 ms
/// with 1, 2 and 4 slots per thread (as written 3.2 ms, all-vr 2.65 ms, CUB
/// 0.49 ms), 0.35 ms with the folded set hash of update(); 8 slots took
/// 0.44 ms before that hash but made uniform keys 10% slower.
#ifndef DD_PRIVATE_HOT_SLOTS
#define DD_PRIVATE_HOT_SLOTS 4
#endif

/// Slots of the hot-index cache an index may take (a set; 1, 2, 4 or 8).
/// Two hot indices that hash to one full set keep the later one out, and it
/// stays contended in the L2: direct-mapped (1), the histogram above took
/// 1.29 ms with one slot per thread, four ways 1.05 ms. Each way is one
/// more shared-memory load per update and more registers: eight ways made
/// the privatized copies' kernels (the same object) 1.5x slower at 1 to 32
/// bins, through occupancy.
#ifndef DD_PRIVATE_HOT_WAYS
#define DD_PRIVATE_HOT_WAYS 4
#endif

namespace dd {

/// The range to give block_private when no bound of the index is known:
/// every block uses the hot-index cache.
inline constexpr unsigned long long unknown_range = ~0ull;

/// Words of T in DD_PRIVATE_BYTES: the capacity the atomics pass declares
/// for a range known only at launch.
template <class T> inline constexpr unsigned private_capacity = DD_PRIVATE_BYTES / sizeof(T);

/// A block's private copy of `global[0, range)`, updated with Op.
///
/// @tparam Op  operation tag of atomic_ops.cuh (ops::add, ops::sub, ops::min,
///             ops::max, ops::bit_and, ops::bit_or, ops::bit_xor)
/// @tparam T   element type; Op::supports<T>
template <class Op, class T> class block_private {
  static_assert(Op::template supports<T>, "no CUDA atomic for this operation and type");
  /// The copy accumulates with Local: subtractions are summed and the sum
  /// subtracted at flush (accumulating `0 - v` would flush the negation).
  using Local = cuda::std::conditional_t<cuda::std::is_same_v<Op, ops::sub>, ops::add, Op>;
  static constexpr unsigned vote_below = DD_PRIVATE_VOTE_BELOW;

public:
  /// Decides whether the block privatizes (or keeps a hot-index cache), and
  /// clears its copy or cache. Every thread of the block calls it, in
  /// block-uniform control flow.
  ///
  /// @param storage     `capacity` words of __shared__ memory
  /// @param global      the global array the updates are for
  /// @param range       updates use indices in [0, range) (others still
  ///                    work); dd::unknown_range when no bound is known
  /// @param per_thread  privatize only when range <= per_thread * block size
  ///                    * blocks
  /// @param blocks      blocks whose threads this block runs (the count of
  ///                    dd::coarse_blocks): the updates the copy or cache
  ///                    serves, per thread of the block, scale with it, and
  ///                    so do what clearing and merging may cost and the
  ///                    cache's slots (DD_PRIVATE_HOT_SLOTS * blocks a
  ///                    thread, as the storage holds)
  __device__ __forceinline__ block_private(T *storage, unsigned capacity, T *global,
                                           unsigned long long range, unsigned per_thread,
                                           unsigned blocks = 1)
      : storage_(storage), global_(global) {
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    const unsigned runs = blocks > 0 ? blocks : 1u;
    const unsigned long long budget = static_cast<unsigned long long>(per_thread) * threads * runs;
    size_ = range > 0 && range <= capacity && range <= budget ? static_cast<unsigned>(range) : 0;
    if (size_ == 0) {
      start_cache(capacity, threads, runs);
      return;
    }
    const unsigned warps = (threads + 31) / 32;
    unsigned copies = capacity / size_;
    copies = copies < warps ? copies : warps;
    copies_ = copies < DD_PRIVATE_MAX_COPIES ? copies : DD_PRIVATE_MAX_COPIES;
    const unsigned mine = copies_ > 1 ? (thread_rank() / 32) % copies_ : 0;
    copy_ = storage_ + mine * size_;
    for (unsigned i = thread_rank(); i < size_ * copies_; i += threads)
      storage_[i] = Local::template identity<T>();
    __syncthreads();
  }

  /// The update `atomicOP(&global[index], value)`, result unused.
  template <class Index> __device__ __forceinline__ void update(Index index, T value) {
    // Negative indices convert to huge values: they go to the global array.
    const auto at = static_cast<unsigned long long>(index);
    if (at < size_) {
      if constexpr (vote_below > 0) {
        if (size_ < vote_below) {
          detail::atomic_vr<Local>(copy_ + index, value);
          return;
        }
      }
      Local::atomic(copy_ + index, value);
      return;
    }
    if (set_bits_ != 0 && at < no_index) {
      const unsigned key = static_cast<unsigned>(at);
      // The set: the index's low bits folded with its higher ones. Indices
      // below the set count keep their order, so that a dense range (the
      // bins of a histogram) takes consecutive sets: the lanes of a warp
      // probe different banks, and the merge's atomics on neighbouring
      // indices share cache lines. Way w of set s is slot s + w * sets.
      const unsigned bits = set_bits_;
      const unsigned sets = 1u << bits;
      const unsigned set =
          (key ^ (key >> bits) ^ (2 * bits < 32 ? key >> (2 * bits) : 0u)) & (sets - 1);
      // A slot changes hands once, from no_index to its index, so a lane
      // that sees its own index there may add to the slot's value. Way 0
      // first: the set's first claimant is the likeliest hot index, and a
      // hit there costs one load; the other ways are read together
      // (independent loads) only when it misses. The slot is chosen before
      // the one add, so that lanes finding their indices in different ways
      // still add in one instruction.
      unsigned held[hot_ways];
      held[0] = tag(set).load(cuda::std::memory_order_relaxed);
      unsigned slot = held[0] == key ? set : no_index;
      if (slot == no_index && held[0] != no_index) {
#pragma unroll
        for (unsigned w = 1; w < hot_ways; ++w)
          held[w] = tag(set + w * sets).load(cuda::std::memory_order_relaxed);
#pragma unroll
        for (unsigned w = 1; w < hot_ways; ++w)
          slot = held[w] == key ? set + w * sets : slot;
      } else {
#pragma unroll
        for (unsigned w = 1; w < hot_ways; ++w)
          held[w] = no_index;
      }
      if (slot == no_index && held[hot_ways - 1] == no_index) {
        // Not there, and the set was not full: claim its free slots in
        // order (a failed claim tells who took the slot).
        for (unsigned w = 0; w < hot_ways; ++w) {
          unsigned seen = held[w];
          if (seen == no_index &&
              tag(set + w * sets).compare_exchange_strong(seen, key, cuda::std::memory_order_relaxed))
            seen = key;
          if (seen == key) {
            slot = set + w * sets;
            break;
          }
        }
      }
      if (slot != no_index) {
        Local::atomic(storage_ + slot, value);
        return;
      }
    }
    // As the pass would have rewritten the atomic without privatization.
    detail::atomic_vr<Op>(global_ + index, value);
  }

  /// Merges the copy (or the cache) into the global array: one atomic per
  /// touched index. Every thread of the block calls it, in block-uniform
  /// control flow, after its last update().
  __device__ __forceinline__ void flush() {
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    if (set_bits_ != 0) {
      __syncthreads();
      for (unsigned i = thread_rank(); i < slots(); i += threads) {
        const unsigned key = tags_[i];
        const T total = storage_[i];
        if (key != no_index && !(total == Local::template identity<T>()))
          Op::atomic(global_ + key, total);
      }
      return;
    }
    if (size_ == 0)
      return;
    __syncthreads();
    for (unsigned i = thread_rank(); i < size_; i += threads) {
      T total = storage_[i];
      for (unsigned c = 1; c < copies_; ++c)
        total = Local::combine(total, storage_[c * size_ + i]);
      // Applying the identity changes nothing: skip the untouched words.
      if (!(total == Local::template identity<T>()))
        Op::atomic(global_ + i, total);
    }
  }

  /// Whether this block privatizes the whole range (the same in every
  /// thread of the block).
  __device__ __forceinline__ bool active() const { return size_ != 0; }

private:
  /// An empty cache slot's tag; this index itself is never cached.
  static constexpr unsigned no_index = 0xffffffffu;

  static constexpr unsigned hot_ways = DD_PRIVATE_HOT_WAYS;
  static_assert(hot_ways == 1 || hot_ways == 2 || hot_ways == 4 || hot_ways == 8,
                "DD_PRIVATE_HOT_WAYS must be 1, 2, 4 or 8");
  static constexpr unsigned log2_ways = hot_ways == 8 ? 3 : hot_ways == 4 ? 2 : hot_ways == 2 ? 1 : 0;

  __device__ __forceinline__ unsigned slots() const { return hot_ways << set_bits_; }

  __device__ __forceinline__ cuda::atomic_ref<unsigned, cuda::thread_scope_block> tag(unsigned slot) const {
    return cuda::atomic_ref<unsigned, cuda::thread_scope_block>(tags_[slot]);
  }

  /// Lays the cache out in the storage, values first (aligned for T), then
  /// one 32-bit tag per slot, and clears it. The slot count is a power of
  /// two, at most DD_PRIVATE_HOT_SLOTS per thread for each block run and
  /// what the storage holds; fewer than 32 slots are not worth a barrier:
  /// no cache.
  __device__ __forceinline__ void start_cache(unsigned capacity, unsigned threads, unsigned blocks) {
    constexpr unsigned per_thread = DD_PRIVATE_HOT_SLOTS;
    if constexpr (per_thread == 0) {
      return;
    } else {
      const unsigned long long fit =
          static_cast<unsigned long long>(capacity) * sizeof(T) / (sizeof(T) + sizeof(unsigned));
      const unsigned long long want = static_cast<unsigned long long>(per_thread) * threads * blocks;
      const unsigned long long most = fit < want ? fit : want;
      if (most < 32)
        return;
      unsigned log = 5;
      while (log < 31 && (2ull << log) <= most)
        ++log;
      // 2^log slots in sets of hot_ways: the hash picks one of the sets.
      set_bits_ = log - log2_ways;
      tags_ = reinterpret_cast<unsigned *>(storage_ + slots());
      for (unsigned i = thread_rank(); i < slots(); i += threads) {
        storage_[i] = Local::template identity<T>();
        tags_[i] = no_index;
      }
      __syncthreads();
    }
  }

  __device__ __forceinline__ static unsigned thread_rank() {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }

  T *storage_;
  T *copy_ = nullptr;
  T *global_;
  unsigned *tags_ = nullptr;
  unsigned size_ = 0;
  unsigned copies_ = 1;
  /// log2(cache sets); 0 when the block keeps no cache (a cache has at
  /// least 32 slots, so at least 4 sets).
  unsigned set_bits_ = 0;
};

} // namespace dd

#endif // DD_PRIVATIZE_CUH
