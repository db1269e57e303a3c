//===- dd/affine_queue.cuh - Producer-warp ring of prefetched tiles -*- CUDA -*-===//
//
// The software form of decoupled affine computation (Wang, dissertation
// §3.2-3.3, ISCA'17) that the split pass (`#pragma dd decouple`) emits: each
// thread block gets one extra *producer warp* that runs the affine slice of a
// loop (loop control, affine addresses, loads whose addresses are affine) and
// copies those loads' data into a ring of shared-memory stages; the
// *consumer warps* (the block as written) run the rest and read the data
// from the ring. The producer never waits for its loads (they are
// asynchronous copies completing on a barrier), so it runs up to Depth
// stages ahead: the dissertation's non-speculative prefetch, with shared
// memory standing in for its locked L1 lines.
//
//   StageCursor<Depth>             position in the ring: slot, phase parity
//   StageRing<Depth>               the full/empty barrier pairs and the
//                                  acquire/commit/wait/release protocol
//   TileSlot<T, Elems>             one tile of a stage: Elems elements of T
//                                  copied from global memory, and its range
//   copy_tile_async(slot, base, begin, end, full)      contiguous (bulk copy)
//   gather_tile_async(slot, base, stride, begin, end, full)  strided
//   AffineQueue<T, TileElems, Depth, TilesPerStage>    one stream: the ring
//                                  and TilesPerStage tiles per stage
//   consumer_sync(threads)         a barrier of the consumer warps only
//   guard_prefix(first, limit, inclusive, n)  the threads that pass a
//                                  guard `i < limit` around a split loop
//
// Protocol (k = 0, 1, 2, ... counts stages; slot k % Depth; a cursor carries
// the parity of the lap, (k / Depth) & 1):
//   producer warp (all 32 lanes)           consumer warps (all their lanes)
//   acquire(k):  wait empty[slot] for the  wait(k):    wait full[slot] for
//                previous lap's phase                  this lap's phase
//   copies into the stage's tiles          read the tiles
//   commit(k):   arrive on full[slot]      release(k): arrive on empty[slot],
//                                                      one arrival per warp
// full[s] expects 33 arrivals: each producer lane's
// cp.async.mbarrier.arrive.noinc (an arrival made when that lane's cp.async
// copies have landed; lanes without copies arrive at once) and lane 0's
// ordinary arrive at commit, plus the bytes of the stage's bulk copies
// (expect-tx); empty[s] expects one arrival per consumer warp. (The
// non-.noinc form, which raises the pending count by one and discharges it
// later, is equally correct but made compute-sanitizer's synccheck report a
// barrier overflow for every producer lane.) The producer waits on empty with the parity of the
// previous lap, which a fresh barrier reports complete, so the first lap
// does not wait.
//
// Memory model. Data: the bulk copies complete-tx on full[s] and the lanes'
// cp.async complete their arrive-on there; a thread whose wait on that phase
// succeeds sees the copied bytes (PTX ISA, mbarrier completion mechanisms).
// Tile metadata (skew, begin, end) is written by the producer's lane 0 with
// ordinary stores before its arrive, which has release semantics at CTA
// scope; the consumers' wait (try_wait / test_wait) has acquire semantics,
// so they read the metadata of this lap. Reuse: each consumer warp reads its
// tiles, __syncwarp() (which orders the lanes' accesses before what follows
// it in every lane), then lane 0 arrives on empty[s] (release); the producer
// acquires by waiting on empty[s] before it overwrites the slot, so no
// consumer read of lap n can see lap n+1's data. The copies write through
// the async proxy after the consumers' generic-proxy reads; those reads have
// returned their values before the release, so no proxy fence is needed
// (one would be, were the consumers to *write* the tiles for the copy
// engine to read: this runtime never does).
//
// Requirements:
//   * sm_80 or newer (mbarrier, cp.async); the bulk copy engine
//     (cp.async.bulk) on sm_90; sm_80/86/89 copy the contiguous part with
//     16-byte cp.async by the 32 producer lanes instead. Define
//     DD_AFFINE_QUEUE_NO_BULK to take that path on sm_90 too (tests use it).
//     sm_70/75 have neither: the split pass declines there.
//     DD_AFFINE_QUEUE_POLL makes waits poll (test_wait) instead of
//     suspending (try_wait) on sm_90, to measure what the suspension costs.
//   * sizeof(T) is 4, 8 or 16 and T is trivially copyable (cp.async moves 4,
//     8 or 16 bytes; global data is naturally aligned).
//   * The consumer threads are whole warps: the block is consumer_threads +
//     32 threads, consumer_threads % 32 == 0, the producer is the last warp
//     (so a consumer's threadIdx.x is the original one). Every consumer
//     warp performs every wait/release, in order (loop trip counts are
//     scalar; per-thread conditions predicate the body, not the protocol).
//   * init() before any other use, by the whole block (it ends with
//     __syncthreads()); nothing after it may __syncthreads() while the
//     producer and consumers run different code: use consumer_sync().
//
// What a stage costs (H200, docs/split-study.md): a block moves at most one
// stage per ~415 cycles when alone on the GPU and per ~800 at 7 blocks per
// SM (barrier waits and the producer's per-copy work, the same from DRAM or
// the L2). So 1 KiB stages cap a stream at 2.3 TB/s (55% of a device copy)
// while 4 KiB stages reach 95-98% of plain loads from DRAM and from the L2:
// make stages >= 4 KiB (TilesPerStage, or one copy spanning several
// iterations when their tiles are adjacent). Waits suspend (try_wait);
// polling was up to 2-3x slower. The bulk copy beat the 16-byte cp.async
// path by 0-13%.
//
// Shared memory (the pass needs it to refuse when it does not fit), bytes:
//   StageRing<D>::Storage           16·D              (two 8-byte mbarriers)
//   TileSlot<T, E>                  16·⌈(s·(E + p) + 12) / 16⌉
//                                   s = sizeof(T), p = 16/s − 1 (0 for s = 16)
//   AffineQueue<T, E, D, U>::Storage 16·D + D·U·sizeof(TileSlot<T, E>)
// (static_asserts below check the formulas). p spare elements let element i
// of the tile sit at the same address modulo 16 as base[i] in global memory,
// which the bulk copy needs for any base. Example: float, E = 256: a slot is
// 1056 bytes; D = 4, U = 2: 8512 bytes per block.
//
//===----------------------------------------------------------------------===//
#ifndef DD_AFFINE_QUEUE_CUH
#define DD_AFFINE_QUEUE_CUH

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dd/warp.cuh"

// Which copy path this compilation pass takes (device passes only).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define DD_AFFINE_QUEUE_UNSUPPORTED 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(DD_AFFINE_QUEUE_NO_BULK)
#define DD_AFFINE_QUEUE_BULK 1
#endif

namespace dd {

namespace detail {

// A dependent false, so that the architecture checks fire only where a
// template is instantiated in device code for a GPU that cannot run it.
template <class> inline constexpr bool dependent_false = false;

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ unsigned long long gmem_addr(const void *p) {
  return static_cast<unsigned long long>(__cvta_generic_to_global(p));
}

// mbarrier operations (PTX ISA §9.7.13.15). Arrive defaults to .release.cta
// and the waits to .acquire.cta, which is what the protocol relies on.

__device__ __forceinline__ void mbarrier_init(unsigned long long *bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count)
               : "memory");
}

__device__ __forceinline__ void mbarrier_arrive(unsigned long long *bar) {
  asm volatile("{\n\t.reg .b64 state;\n\t"
               "mbarrier.arrive.shared.b64 state, [%0];\n\t}" ::"r"(smem_addr(bar))
               : "memory");
}

/// Blocks until the phase of `bar` with the given parity has completed.
__device__ __forceinline__ void mbarrier_wait_parity(unsigned long long *bar, unsigned parity) {
  const unsigned addr = smem_addr(bar);
  unsigned done = 0;
  do {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(DD_AFFINE_QUEUE_POLL)
    // try_wait suspends the thread in hardware until the phase completes or
    // a time limit passes: no issue slots burnt while the data is in flight.
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(addr), "r"(parity)
                 : "memory");
#else
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(addr), "r"(parity)
                 : "memory");
#endif
  } while (!done);
}

/// An arrival on `bar` once every cp.async this thread issued before has
/// landed (the .noinc form: it counts as one of the barrier's expected
/// arrivals, so every producer lane must make it, copies or not).
__device__ __forceinline__ void cp_async_arrive(unsigned long long *bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(smem_addr(bar)) : "memory");
}

/// Asynchronous copy of one element of 4, 8 or 16 bytes, global to shared.
template <unsigned Bytes>
__device__ __forceinline__ void cp_async_element(void *dst, const void *src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async moves 4, 8 or 16 bytes");
  if constexpr (Bytes == 16) // .cg: L2 only; the data is used once, from shared memory
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)),
                 "l"(gmem_addr(src))
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(smem_addr(dst)),
                 "l"(gmem_addr(src)), "n"(Bytes)
                 : "memory");
}

#if defined(DD_AFFINE_QUEUE_BULK)
/// The bulk copy engine: `bytes` (a multiple of 16, both addresses 16-byte
/// aligned) from global to shared, completing `bytes` transactions on `bar`
/// after announcing them (expect-tx) so the phase cannot complete early.
__device__ __forceinline__ void bulk_copy(void *dst, const void *src, unsigned bytes,
                                          unsigned long long *bar) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1], %2, [%3];" ::"r"(smem_addr(dst)),
               "l"(gmem_addr(src)), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}
#endif

template <class T> __device__ __forceinline__ void check_element_type() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "dd::TileSlot elements must be 4, 8 or 16 bytes (cp.async sizes)");
  static_assert(std::is_trivially_copyable_v<T>, "tiles are copied as bytes");
#if defined(DD_AFFINE_QUEUE_UNSUPPORTED)
  static_assert(dependent_false<T>, "dd::AffineQueue needs sm_80 or newer (mbarrier, cp.async)");
#endif
}

} // namespace detail

/// A position in a ring of Depth stages: the slot and the parity of the lap
/// (a barrier's phase parity flips each time the ring wraps). Producer and
/// consumers keep their own cursors and advance them in the same order.
///
/// @tparam Depth  stages in the ring (>= 2 for any overlap)
template <unsigned Depth> struct StageCursor {
  static_assert(Depth >= 1, "a ring needs a stage");
  unsigned slot = 0;
  unsigned phase = 0;

  __device__ __forceinline__ void advance() {
    if (++slot == Depth) {
      slot = 0;
      phase ^= 1u;
    }
  }
  /// The cursor `n` stages later.
  __device__ __forceinline__ StageCursor next(unsigned n = 1) const {
    StageCursor c = *this;
    for (unsigned i = 0; i < n; ++i)
      c.advance();
    return c;
  }
};

/// The synchronization of a ring: per slot a *full* barrier (the producer's
/// copies have landed) and an *empty* barrier (every consumer warp is done
/// with the slot). The data layout of a stage is the caller's: AffineQueue
/// below holds one stream; a kernel with several streams puts its own array
/// of TileSlot structs next to a StageRing.
///
/// @tparam Depth  stages in the ring; the producer runs at most Depth stages
///                ahead of the slowest consumer warp
template <unsigned Depth> class StageRing {
public:
  struct Storage {
    unsigned long long full[Depth];
    unsigned long long empty[Depth];
  };
  static_assert(sizeof(Storage) == 16 * Depth, "shared-memory formula (header comment)");

  /// Arrivals that complete a full[] phase: the 32 producer lanes'
  /// cp.async arrivals and lane 0's commit.
  static constexpr unsigned kFullArrivals = 32 + 1;

  __device__ __forceinline__ explicit StageRing(Storage &storage) : s_(storage) {}

  /// Block-collective: thread 0 initializes the barriers, then
  /// __syncthreads(). `consumer_warps` is the number of warps that release.
  __device__ __forceinline__ void init(unsigned consumer_warps) {
    static_assert(detail::device_arch_at_least<800, std::integral_constant<unsigned, Depth>>,
                  "dd::StageRing (dd::AffineQueue) needs sm_80 or newer (mbarrier, cp.async)");
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
      for (unsigned i = 0; i < Depth; ++i) {
        detail::mbarrier_init(&s_.full[i], kFullArrivals);
        detail::mbarrier_init(&s_.empty[i], consumer_warps);
      }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      // Makes the initialization visible to the copy engine's complete-tx.
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
    }
    __syncthreads();
  }

  // ---- producer warp: every lane calls these, converged ----

  /// Waits until the consumers have released slot `c` of the previous lap.
  __device__ __forceinline__ void acquire(StageCursor<Depth> c) {
    detail::mbarrier_wait_parity(&s_.empty[c.slot], c.phase ^ 1u);
  }

  /// The barrier the copies of stage `c` complete on.
  __device__ __forceinline__ unsigned long long *full(StageCursor<Depth> c) {
    return &s_.full[c.slot];
  }

  /// Publishes stage `c`: it becomes readable once every copy issued into it
  /// has landed. Each lane ties its own cp.async copies to the barrier; then
  /// lane 0's arrival (release) also publishes the tiles' metadata.
  __device__ __forceinline__ void commit(StageCursor<Depth> c) {
    detail::cp_async_arrive(&s_.full[c.slot]);
    __syncwarp();
    if (lane_id() == 0)
      detail::mbarrier_arrive(&s_.full[c.slot]);
  }

  // ---- consumer warps: every lane of every consumer warp calls these ----

  /// Waits until stage `c` is full.
  __device__ __forceinline__ void wait(StageCursor<Depth> c) {
    detail::mbarrier_wait_parity(&s_.full[c.slot], c.phase);
  }

  /// Hands slot `c` back to the producer: one arrival per warp, after the
  /// whole warp's reads.
  __device__ __forceinline__ void release(StageCursor<Depth> c) {
    __syncwarp();
    if (lane_id() == 0)
      detail::mbarrier_arrive(&s_.empty[c.slot]);
  }

private:
  Storage &s_;
};

/// One tile of a stage: up to Elems elements of T, element i being a copy of
/// base[i] for the `base` of the last copy into it, for i in [begin, end).
/// The bytes sit at data[skew + i], skew chosen so that the shared and global
/// addresses agree modulo 16 (what the bulk copy needs).
///
/// @tparam T      element type: 4, 8 or 16 bytes, trivially copyable
/// @tparam Elems  elements per tile (the range [begin, end) is within
///                [0, Elems)); typically the consumer threads, or that plus
///                a halo
template <class T, unsigned Elems> struct TileSlot {
  static_assert(Elems >= 1, "an empty tile");
  static constexpr unsigned pad = sizeof(T) >= 16 ? 0 : 16 / sizeof(T) - 1;
  alignas(16) T data[Elems + pad];
  unsigned skew;  // element index of base[0] in data
  unsigned begin; // the elements copied: [begin, end)
  unsigned end;

  /// Element i (a copy of base[i]); consumers call this after wait().
  __device__ __forceinline__ const T &operator[](unsigned i) const { return data[skew + i]; }
  /// Whether element i was copied (the stage's predicate for element i).
  __device__ __forceinline__ bool contains(unsigned i) const { return begin <= i && i < end; }
};

/// The bytes of one TileSlot<T, Elems> (the formula in the header comment).
template <class T, unsigned Elems>
inline constexpr std::size_t tile_slot_bytes =
    16 * ((sizeof(T) * (Elems + (sizeof(T) >= 16 ? 0 : 16 / sizeof(T) - 1)) + 12 + 15) / 16);

static_assert(sizeof(TileSlot<float, 256>) == tile_slot_bytes<float, 256> &&
                  sizeof(TileSlot<float, 256>) == 1056,
              "shared-memory formula (header comment)");
static_assert(sizeof(TileSlot<double, 258>) == tile_slot_bytes<double, 258>,
              "shared-memory formula (header comment)");
static_assert(sizeof(TileSlot<int4, 33>) == tile_slot_bytes<int4, 33>,
              "shared-memory formula (header comment)");

/// Producer warp, all 32 lanes: copies base[begin, end) into `slot`
/// asynchronously, completing on `full` (StageRing::full of the stage being
/// filled, between acquire and commit). `base` may point before the array
/// (a halo at x = -1): only base[begin, end) is read. On sm_90 lane 0 moves
/// the 16-byte-aligned middle with one bulk copy and the lanes copy the
/// unaligned ends (at most 16/sizeof(T) − 1 elements each) element by
/// element; elsewhere the lanes copy the middle in 16-byte pieces.
///
/// Requires 0 <= begin <= end <= Elems.
template <class T, unsigned Elems>
__device__ __forceinline__ void copy_tile_async(TileSlot<T, Elems> &slot, const T *base,
                                                unsigned begin, unsigned end,
                                                unsigned long long *full) {
  detail::check_element_type<T>();
  constexpr unsigned s = sizeof(T);
  const unsigned lane = lane_id();
  const std::uintptr_t g = reinterpret_cast<std::uintptr_t>(base);
  const unsigned skew = static_cast<unsigned>(g % 16) / s;
  if (lane == 0) {
    slot.skew = skew;
    slot.begin = begin;
    slot.end = end;
  }
  if (begin >= end)
    return;
  T *dst = slot.data + skew; // dst[i] and base[i] agree modulo 16
  // The 16-byte-aligned middle [mid_begin, mid_end) of [begin, end), in
  // elements; empty when the range holds no aligned 16 bytes.
  const std::uintptr_t lo = g + std::uintptr_t(begin) * s, hi = g + std::uintptr_t(end) * s;
  const std::uintptr_t a = (lo + 15) & ~std::uintptr_t(15), b = hi & ~std::uintptr_t(15);
  unsigned mid_begin = end, mid_end = end;
  if (a < b) {
    mid_begin = static_cast<unsigned>((a - g) / s);
    mid_end = static_cast<unsigned>((b - g) / s);
  }
  const unsigned head = mid_begin - begin, edges = head + (end - mid_end);
  for (unsigned e = lane; e < edges; e += warp_size) {
    const unsigned i = e < head ? begin + e : mid_end + (e - head);
    detail::cp_async_element<s>(dst + i, base + i);
  }
  if (mid_begin == mid_end)
    return;
#if defined(DD_AFFINE_QUEUE_BULK)
  if (lane == 0)
    detail::bulk_copy(dst + mid_begin, base + mid_begin, (mid_end - mid_begin) * s, full);
#else
  const unsigned pieces = (mid_end - mid_begin) * s / 16;
  const char *src_bytes = reinterpret_cast<const char *>(base + mid_begin);
  char *dst_bytes = reinterpret_cast<char *>(dst + mid_begin);
  for (unsigned p = lane; p < pieces; p += warp_size)
    detail::cp_async_element<16>(dst_bytes + 16 * p, src_bytes + 16 * p);
#endif
  (void)full;
}

/// Producer warp, all 32 lanes: element i of `slot` becomes base[i * stride]
/// for i in [begin, end) (an affine gather; stride in elements, any sign),
/// one cp.async per element, completing on `full`.
template <class T, unsigned Elems>
__device__ __forceinline__ void gather_tile_async(TileSlot<T, Elems> &slot, const T *base,
                                                  long long stride, unsigned begin,
                                                  unsigned end, unsigned long long * /*full*/) {
  detail::check_element_type<T>();
  const unsigned lane = lane_id();
  if (lane == 0) {
    slot.skew = 0;
    slot.begin = begin;
    slot.end = end;
  }
  for (unsigned i = begin + lane; i < end; i += warp_size)
    detail::cp_async_element<sizeof(T)>(slot.data + i, base + static_cast<long long>(i) * stride);
}

/// One affine load stream through a ring: Depth stages of TilesPerStage
/// tiles of TileElems elements each (TilesPerStage > 1 lets a stage carry
/// several loop iterations, so consumers wait once per TilesPerStage
/// iterations and the compiler can overlap the loads those iterations still
/// issue themselves).
///
/// @tparam T              element type (4, 8 or 16 bytes)
/// @tparam TileElems      elements per tile
/// @tparam Depth          stages in the ring
/// @tparam TilesPerStage  tiles (loop iterations) per stage
template <class T, unsigned TileElems, unsigned Depth, unsigned TilesPerStage = 1>
class AffineQueue {
public:
  using Ring = StageRing<Depth>;
  using Cursor = StageCursor<Depth>;
  using Slot = TileSlot<T, TileElems>;
  struct Storage {
    typename Ring::Storage ring;
    Slot tiles[Depth][TilesPerStage];
  };
  static constexpr std::size_t shared_bytes = sizeof(Storage);
  static_assert(shared_bytes ==
                    16 * Depth + std::size_t(Depth) * TilesPerStage * tile_slot_bytes<T, TileElems>,
                "shared-memory formula (header comment)");

  __device__ __forceinline__ explicit AffineQueue(Storage &storage)
      : s_(storage), ring_(storage.ring) {}

  /// Block-collective (ends with __syncthreads()).
  __device__ __forceinline__ void init(unsigned consumer_warps) { ring_.init(consumer_warps); }

  // ---- producer warp ----
  __device__ __forceinline__ void acquire(Cursor c) { ring_.acquire(c); }
  /// Tile t of stage c becomes base[begin, end) (contiguous).
  __device__ __forceinline__ void copy_tile_async(Cursor c, unsigned t, const T *base,
                                                  unsigned begin, unsigned end) {
    dd::copy_tile_async(s_.tiles[c.slot][t], base, begin, end, ring_.full(c));
  }
  /// Tile t of stage c becomes base[i * stride], i in [begin, end).
  __device__ __forceinline__ void gather_tile_async(Cursor c, unsigned t, const T *base,
                                                    long long stride, unsigned begin,
                                                    unsigned end) {
    dd::gather_tile_async(s_.tiles[c.slot][t], base, stride, begin, end, ring_.full(c));
  }
  __device__ __forceinline__ void commit(Cursor c) { ring_.commit(c); }

  // ---- consumer warps ----
  __device__ __forceinline__ void wait(Cursor c) { ring_.wait(c); }
  __device__ __forceinline__ const Slot &tile(Cursor c, unsigned t = 0) const {
    return s_.tiles[c.slot][t];
  }
  __device__ __forceinline__ void release(Cursor c) { ring_.release(c); }

private:
  Storage &s_;
  Ring ring_;
};

/// A barrier of the consumer warps alone (named barrier 1; __syncthreads()
/// is barrier 0 and would wait for the producer warp): for block-level
/// reductions or shared-memory phases of the original kernel that follow the
/// split loop. `threads` is the number of consumer threads, a multiple of 32.
__device__ __forceinline__ void consumer_sync(unsigned threads) {
  asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
}

/// How many consumer threads pass a guard `index < limit` (`<=` when
/// `inclusive`) around a split loop, where thread t's index is `first + t`:
/// they are threads [0, result), a prefix of the block, and result <= `n`
/// (the threads there are). Evaluated in the comparison's type `T`, as the
/// guard is; `limit - first` is taken in the unsigned type of `T`, exact
/// once first <= limit. The producer copies only the tile elements of those
/// threads, so it reads no element the loop as written does not.
///
/// \tparam T  the guard's operand type after the usual conversions (an
///            integer type other than bool)
template <class T>
__host__ __device__ constexpr unsigned guard_prefix(T first, T limit, bool inclusive,
                                                    unsigned n) {
  static_assert(std::is_integral<T>::value && !std::is_same<T, bool>::value,
                "guard_prefix: T is the guard's integer operand type");
  using U = typename std::make_unsigned<T>::type;
  if (inclusive ? limit < first : !(first < limit))
    return 0;
  const U gap = static_cast<U>(static_cast<U>(limit) - static_cast<U>(first));
  if (gap >= n)
    return n;
  return static_cast<unsigned>(gap) + (inclusive ? 1u : 0u);
}

} // namespace dd

#endif // DD_AFFINE_QUEUE_CUH
