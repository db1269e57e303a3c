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
// words per thread. Otherwise every update() goes to the global array as
// dd::atomic_OP_vr (the pass's choice without privatization), and the object
// costs one branch per update.
//
//===----------------------------------------------------------------------===//
#ifndef DD_PRIVATIZE_CUH
#define DD_PRIVATIZE_CUH

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

namespace dd {

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
  /// Decides whether the block privatizes, and clears its copy if so.
  /// Every thread of the block calls it, in block-uniform control flow.
  ///
  /// @param storage     `capacity` words of __shared__ memory
  /// @param global      the global array the updates are for
  /// @param range       updates use indices in [0, range) (others still work)
  /// @param per_thread  privatize only when range <= per_thread * block size
  __device__ __forceinline__ block_private(T *storage, unsigned capacity, T *global,
                                           unsigned long long range, unsigned per_thread)
      : storage_(storage), global_(global) {
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    size_ = range > 0 && range <= capacity &&
                    range <= static_cast<unsigned long long>(per_thread) * threads
                ? static_cast<unsigned>(range)
                : 0;
    if (size_ == 0)
      return;
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
    if (static_cast<unsigned long long>(index) < size_) {
      if constexpr (vote_below > 0) {
        if (size_ < vote_below) {
          detail::atomic_vr<Local>(copy_ + index, value);
          return;
        }
      }
      Local::atomic(copy_ + index, value);
    } else {
      // As the pass would have rewritten the atomic without privatization.
      detail::atomic_vr<Op>(global_ + index, value);
    }
  }

  /// Merges the copy into the global array: one atomic per touched index.
  /// Every thread of the block calls it, in block-uniform control flow,
  /// after its last update().
  __device__ __forceinline__ void flush() {
    if (size_ == 0)
      return;
    __syncthreads();
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    for (unsigned i = thread_rank(); i < size_; i += threads) {
      T total = storage_[i];
      for (unsigned c = 1; c < copies_; ++c)
        total = Local::combine(total, storage_[c * size_ + i]);
      // Applying the identity changes nothing: skip the untouched words.
      if (!(total == Local::template identity<T>()))
        Op::atomic(global_ + i, total);
    }
  }

  /// Whether this block privatizes (the same in every thread of the block).
  __device__ __forceinline__ bool active() const { return size_ != 0; }

private:
  __device__ __forceinline__ static unsigned thread_rank() {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }

  T *storage_;
  T *copy_ = nullptr;
  T *global_;
  unsigned size_ = 0;
  unsigned copies_ = 1;
};

} // namespace dd

#endif // DD_PRIVATIZE_CUH
