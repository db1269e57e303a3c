//===- dd/grid_stride_updates.cuh - Vector loads for grid-stride updates -*- CUDA -*-===//
//
// The commonest histogram loop walks an array with the whole grid:
//
//   for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//        i += gridDim.x * blockDim.x)
//     hist.update(key(bytes[i]), 1u);
//
// Each iteration loads one element; a warp's load of bytes fetches 32 bytes.
// Even with dd::pipelined_updates' loads ahead, a privatized byte histogram
// spent its time issuing and predicating narrow loads (770 GB/s on an H100,
// where CUB's HistogramEven, loading vectors, reads 1300-1400 GB/s;
// docs/PERF.md).
//
// Over the whole grid this loop visits every index of [0, n) exactly once,
// when the grid is one-dimensional and nothing wraps; which thread visits
// which index does not matter to a privatized update (an atomic: the
// updates commute). dd::grid_stride_updates visits the same indices with
// each thread loading 16-byte vectors of consecutive elements, the
// unaligned head and the tail one element per thread; the vectors go to as
// few blocks as give each thread DD_GRID_STRIDE_MIN_VECTORS of them, so
// that a grid of several waves does not clear and merge a copy per block
// for a few vectors each (docs/PERF.md, "Vector loads").
//
// What the caller must guarantee (the atomics pass proves it before it
// emits this; docs/atomics.md, "Vector loads"):
//   - the loop was the one above: the loop variable starts at the thread's
//     index in the grid's x dimension, steps by the grid's x size and runs
//     while below `n` (in the type N the comparison converts to); the body
//     is declarations with pure initializers and one update;
//   - the loop variable appears in the update's index and value only as the
//     subscript of reads of one array, `elems[i]`; `index` and `value` are
//     the update's index and value with each such read replaced by their
//     parameter, and have no side effects;
//   - what they read is not written by the updates (dd::block_private's
//     contract: the loop does not touch the global array other than through
//     update());
//   - `n`, `elems`, `index` and `value` are the same in every thread of the
//     grid (they read no thread's index and no memory the grid writes);
//   - every thread of the grid calls it, and none has written memory before
//     (its own store to elems[i] would not be ordered before another
//     thread's read of it).
// It returns false, having done nothing, where it cannot keep the loop's
// meaning or would gain nothing: a grid or block with more than one
// dimension (threads that share an x index each visit the indices), a step
// or index that could wrap in I, an array not aligned to its elements, or a
// block that keeps a cache of hot indices rather than a copy. The caller
// then runs the loop itself. Every thread of the grid gets the same answer.
//
//===----------------------------------------------------------------------===//
#ifndef DD_GRID_STRIDE_UPDATES_CUH
#define DD_GRID_STRIDE_UPDATES_CUH

#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

/// Vectors each thread that takes a share of a grid-stride walk gets at
/// least (the walk goes to fewer blocks where the grid is larger than that
/// needs). Measured on an H100 (docs/PERF.md, "Vector loads").
#ifndef DD_GRID_STRIDE_MIN_VECTORS
#define DD_GRID_STRIDE_MIN_VECTORS 8
#endif

namespace dd {

/// `for (I i = <thread's x index>; i < n; i += <threads in x>)
/// updates.update(index(elems[i]), value(elems[i]));` with each thread loading
/// 16-byte vectors of consecutive elements. Returns whether it ran (see
/// above); false leaves the loop to the caller.
///
/// @tparam I       the loop variable's type (an integer type)
/// @tparam N       the type `i < n` compares in (the usual arithmetic
///                 conversions of I and n's type; holds every value of I
///                 that is not negative)
/// @tparam MinVectors  vectors each working thread gets at least (see below)
/// @tparam E       the array's element type (arithmetic, 1, 2, 4 or 8 bytes)
/// @param updates  the dd::block_private the loop updates, by reference
/// @param elems    the array the loop reads, `elems[i]`
/// @param n        the loop's bound
/// @param index    `(E) -> index`: the update's index, from the element
/// @param value    `(E) -> value`: the update's value, from the element
/// @param end      where it ran and `end` is given: set to the value the loop
///                 leaves in this thread's variable (the first not below n)
template <class I, class N, unsigned MinVectors = DD_GRID_STRIDE_MIN_VECTORS, class Updates,
          class E, class Index, class Value>
__device__ __forceinline__ bool grid_stride_updates(Updates &updates, const E *elems, N n,
                                                    Index index, Value value,
                                                    I *end = nullptr) {
  static_assert(cuda::std::is_integral_v<I> && cuda::std::is_integral_v<N> && sizeof(N) <= 8,
                "the loop variable and its bound are integers");
  static_assert(cuda::std::is_arithmetic_v<E> &&
                    (sizeof(E) == 1 || sizeof(E) == 2 || sizeof(E) == 4 || sizeof(E) == 8),
                "elements of 1, 2, 4 or 8 bytes");
  using Wide = unsigned long long;
  if (!updates.active() || gridDim.y != 1 || gridDim.z != 1 || blockDim.y != 1 ||
      blockDim.z != 1)
    return false;
  const Wide threads = static_cast<Wide>(gridDim.x) * blockDim.x;
  // Below 2^31 threads, the loop's index and step expressions cannot wrap
  // in any integer type of 32 bits or more, signed or not.
  if (threads >= (Wide{1} << 31))
    return false;
  // Indices the loop visits: [0, count).
  const Wide count = n > N(0) ? static_cast<Wide>(n) : 0;
  // The loop's last step must not wrap in I (it would visit indices again).
  if (count > static_cast<Wide>(cuda::std::numeric_limits<I>::max()) - threads)
    return false;
  const auto address = reinterpret_cast<cuda::std::uintptr_t>(elems);
  if (address % alignof(E) != 0)
    return false;
  const Wide thread = static_cast<Wide>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (end)
    *end = static_cast<I>(thread < count ? thread + (count - thread + threads - 1) / threads * threads
                                         : thread);
  if (count == 0)
    return true;

  constexpr unsigned per_vector = 16 / sizeof(E);
  // Elements before the first 16-byte boundary, and after the last whole
  // vector, one per thread.
  Wide head = ((16 - address % 16) % 16) / sizeof(E);
  head = head < count ? head : count;
  const Wide vectors = (count - head) / per_vector;
  const Wide tail = head + vectors * per_vector;
  for (Wide t = thread; t < head; t += threads) {
    const E e = elems[t];
    updates.update(index(e), value(e));
  }
  for (Wide t = thread; tail + t < count; t += threads) {
    const E e = elems[tail + t];
    updates.update(index(e), value(e));
  }
  // The vectors go to the first blocks of the grid, as many as give each of
  // their threads MinVectors vectors (all blocks where there are fewer):
  // every block that takes a share clears and merges its copy, and a block
  // with a few vectors per thread spends more on that than on its share.
  // The others only clear and merge an untouched copy.
  Wide workers = threads;
  if constexpr (MinVectors > 1) {
    const Wide wanted = (vectors + MinVectors - 1) / MinVectors;
    const Wide blocks = (wanted + blockDim.x - 1) / blockDim.x;
    workers = blocks < gridDim.x ? blocks * blockDim.x : threads;
  }
  const uint4 *words = reinterpret_cast<const uint4 *>(elems + head);
  for (Wide v = thread; v < vectors && thread < workers; v += workers) {
    const uint4 word = words[v];
    E e[per_vector];
    static_assert(sizeof(e) == sizeof(word), "a vector holds per_vector elements");
    __builtin_memcpy(e, &word, sizeof(word));
#pragma unroll
    for (unsigned k = 0; k < per_vector; ++k)
      updates.update(index(e[k]), value(e[k]));
  }
  return true;
}

} // namespace dd

#endif // DD_GRID_STRIDE_UPDATES_CUH
