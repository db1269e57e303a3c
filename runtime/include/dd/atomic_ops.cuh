//===- dd/atomic_ops.cuh - The combinable atomic operations -----*- CUDA -*-===//
//
// One tag type per read-modify-write that can be combined across lanes: the
// combined effect of several lanes' updates of one word is a single update by
// a combined value,
//
//   add:  x + a + b          = x + (a + b)          (wraps for integers)
//   sub:  x - a - b          = x - (a + b)
//   min:  min(min(x, a), b)  = min(x, min(a, b))    (max likewise)
//   and:  x & a & b          = x & (a & b)          (or, xor likewise)
//
// so a warp may reduce its lanes' values first and issue one atomic (CUDA's
// own, on the same word, with the same scope) for each address. For the
// integer operations this is exact; for floating-point add it reorders the
// additions (see atomics.cuh).
//
// Each tag provides:
//   supports<T>      whether CUDA has the hardware atomic for T
//   combine(a, b)    the binary operation the reduction applies
//   identity<T>()    the value combine leaves unchanged (block_private
//                    starts its shared copies from it)
//   atomic(p, v)     the hardware atomic, result discarded (compiles to RED)
//   redux(mask, v)   (sm_80+) the reduction of v over `mask` with the
//                    __reduce_*_sync instructions, when has_redux<T>
//
// __reduce_*_sync exists for 32-bit integers only (add, min, max, and, or,
// xor). 64-bit integers are reduced exactly with two or three 32-bit
// reductions over parts of the value, which is still cheaper than the five
// rounds of 64-bit shuffles (ten SHFL instructions) of the generic path.
// Floating point always takes the shuffle path of warp_reduce.cuh.
//
//===----------------------------------------------------------------------===//
#ifndef DD_ATOMIC_OPS_CUH
#define DD_ATOMIC_OPS_CUH

#include "dd/type_traits.cuh"

#include <cuda/std/limits>

/// Whether the __reduce_*_sync instructions (sm_80+) may be used. Define
/// DD_ATOMICS_NO_REDUX to force the shuffle-based reductions everywhere (the
/// GPU tests do, to cover the sm_70/sm_75 path on newer GPUs).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && !defined(DD_ATOMICS_NO_REDUX)
#define DD_HAS_REDUX 1
#else
#define DD_HAS_REDUX 0
#endif

namespace dd {
namespace ops {

namespace detail {
using u32 = unsigned;
using u64 = unsigned long long;

__device__ __forceinline__ u32 lo32(u64 x) { return static_cast<u32>(x); }
__device__ __forceinline__ u32 hi32(u64 x) { return static_cast<u32>(x >> 32); }
__device__ __forceinline__ u64 join64(u32 hi, u32 lo) {
  return (static_cast<u64>(hi) << 32) | lo;
}

#if DD_HAS_REDUX
/// Sum of a 64-bit value over `mask`, modulo 2^64, from three 32-bit sums:
/// the high words (their sum is only needed modulo 2^32, since it is shifted
/// by 32) and the two 16-bit halves of the low words (at most 32 * 0xffff <
/// 2^21 each, so those sums cannot overflow).
__device__ __forceinline__ u64 redux_add_u64(unsigned mask, u64 x) {
  const u32 hi = __reduce_add_sync(mask, hi32(x));
  const u32 mid = __reduce_add_sync(mask, lo32(x) >> 16);
  const u32 low = __reduce_add_sync(mask, lo32(x) & 0xffffu);
  return (static_cast<u64>(hi) << 32) + (static_cast<u64>(mid) << 16) + low;
}

/// Minimum (IsMax = false) or maximum of a 64-bit value over `mask`:
/// 64-bit order is the lexicographic order of (high word, low word), with the
/// high word signed for long long and the low word always unsigned. So reduce
/// the high words, then the low words of only the lanes that hold the extreme
/// high word (the others contribute the identity).
template <bool IsMax, class T>
__device__ __forceinline__ T redux_minmax_64(unsigned mask, T x) {
  const u64 bits = static_cast<u64>(x);
  u32 lo = lo32(bits);
  u32 hi_bits;
  if constexpr (std::is_signed_v<T>) {
    const int hi = static_cast<int>(hi32(bits));
    const int best = IsMax ? __reduce_max_sync(mask, hi) : __reduce_min_sync(mask, hi);
    if (hi != best)
      lo = IsMax ? 0u : 0xffffffffu;
    hi_bits = static_cast<u32>(best);
  } else {
    const u32 hi = hi32(bits);
    const u32 best = IsMax ? __reduce_max_sync(mask, hi) : __reduce_min_sync(mask, hi);
    if (hi != best)
      lo = IsMax ? 0u : 0xffffffffu;
    hi_bits = best;
  }
  lo = IsMax ? __reduce_max_sync(mask, lo) : __reduce_min_sync(mask, lo);
  return static_cast<T>(join64(hi_bits, lo));
}
#endif // DD_HAS_REDUX
} // namespace detail

/// atomicAdd: int, unsigned, unsigned long long, float, double.
struct add {
  template <class T>
  static constexpr bool supports =
      dd::detail::is_one_of_v<T, int, unsigned, unsigned long long, float, double>;
  template <class T>
  static constexpr bool has_redux =
      dd::detail::is_one_of_v<T, int, unsigned, unsigned long long>;

  template <class T> __device__ __forceinline__ static constexpr T identity() { return T(0); }
  template <class T> __device__ __forceinline__ static T combine(T a, T b) {
    if constexpr (std::is_same_v<T, int>) // wrap like the hardware, without UB
      return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
    else
      return a + b;
  }
  template <class T> __device__ __forceinline__ static void atomic(T *p, T v) {
    atomicAdd(p, v);
  }
#if DD_HAS_REDUX
  template <class T> __device__ __forceinline__ static T redux(unsigned mask, T v) {
    if constexpr (sizeof(T) == 8)
      return static_cast<T>(detail::redux_add_u64(mask, static_cast<unsigned long long>(v)));
    else
      return static_cast<T>(__reduce_add_sync(mask, static_cast<unsigned>(v)));
  }
#endif
};

/// atomicSub: int, unsigned; unsigned long long too, as atomicAdd of the
/// two's complement (CUDA has no 64-bit atomicSub; the effect on memory,
/// x - v modulo 2^64, is the same). Lanes' values are summed, then
/// subtracted once.
struct sub {
  template <class T>
  static constexpr bool supports =
      dd::detail::is_one_of_v<T, int, unsigned, unsigned long long>;
  template <class T> static constexpr bool has_redux = add::has_redux<T>;

  template <class T> __device__ __forceinline__ static constexpr T identity() { return T(0); }
  template <class T> __device__ __forceinline__ static T combine(T a, T b) {
    return add::combine(a, b);
  }
  template <class T> __device__ __forceinline__ static void atomic(T *p, T v) {
    if constexpr (std::is_same_v<T, unsigned long long>)
      atomicAdd(p, 0ull - v);
    else
      atomicSub(p, v);
  }
#if DD_HAS_REDUX
  template <class T> __device__ __forceinline__ static T redux(unsigned mask, T v) {
    return add::redux(mask, v);
  }
#endif
};

/// atomicMin: int, unsigned, long long, unsigned long long.
struct min {
  template <class T>
  static constexpr bool supports =
      dd::detail::is_one_of_v<T, int, unsigned, long long, unsigned long long>;
  template <class T> static constexpr bool has_redux = supports<T>;

  template <class T> __device__ __forceinline__ static constexpr T identity() {
    return cuda::std::numeric_limits<T>::max();
  }
  template <class T> __device__ __forceinline__ static T combine(T a, T b) {
    return b < a ? b : a;
  }
  template <class T> __device__ __forceinline__ static void atomic(T *p, T v) {
    atomicMin(p, v);
  }
#if DD_HAS_REDUX
  template <class T> __device__ __forceinline__ static T redux(unsigned mask, T v) {
    if constexpr (sizeof(T) == 8)
      return detail::redux_minmax_64<false>(mask, v);
    else
      return __reduce_min_sync(mask, v);
  }
#endif
};

/// atomicMax: int, unsigned, long long, unsigned long long.
struct max {
  template <class T> static constexpr bool supports = min::supports<T>;
  template <class T> static constexpr bool has_redux = supports<T>;

  template <class T> __device__ __forceinline__ static constexpr T identity() {
    return cuda::std::numeric_limits<T>::lowest();
  }
  template <class T> __device__ __forceinline__ static T combine(T a, T b) {
    return a < b ? b : a;
  }
  template <class T> __device__ __forceinline__ static void atomic(T *p, T v) {
    atomicMax(p, v);
  }
#if DD_HAS_REDUX
  template <class T> __device__ __forceinline__ static T redux(unsigned mask, T v) {
    if constexpr (sizeof(T) == 8)
      return detail::redux_minmax_64<true>(mask, v);
    else
      return __reduce_max_sync(mask, v);
  }
#endif
};

namespace detail {
/// Bitwise reductions act on each bit alone, so a 64-bit one is the two
/// 32-bit halves reduced separately.
template <class Reduce32, class T>
__device__ __forceinline__ T redux_bitwise(unsigned mask, T v, Reduce32 reduce32) {
  if constexpr (sizeof(T) == 8) {
    const u64 bits = static_cast<u64>(v);
    return static_cast<T>(join64(reduce32(mask, hi32(bits)), reduce32(mask, lo32(bits))));
  } else {
    return static_cast<T>(reduce32(mask, static_cast<unsigned>(v)));
  }
}
} // namespace detail

/// atomicAnd: int, unsigned, unsigned long long.
struct bit_and {
  template <class T>
  static constexpr bool supports =
      dd::detail::is_one_of_v<T, int, unsigned, unsigned long long>;
  template <class T> static constexpr bool has_redux = supports<T>;

  template <class T> __device__ __forceinline__ static constexpr T identity() { return static_cast<T>(~T(0)); }
  template <class T> __device__ __forceinline__ static T combine(T a, T b) { return a & b; }
  template <class T> __device__ __forceinline__ static void atomic(T *p, T v) {
    atomicAnd(p, v);
  }
#if DD_HAS_REDUX
  template <class T> __device__ __forceinline__ static T redux(unsigned mask, T v) {
    return detail::redux_bitwise(mask, v, [](unsigned m, unsigned x) {
      return __reduce_and_sync(m, x);
    });
  }
#endif
};

/// atomicOr: int, unsigned, unsigned long long.
struct bit_or {
  template <class T> static constexpr bool supports = bit_and::supports<T>;
  template <class T> static constexpr bool has_redux = supports<T>;

  template <class T> __device__ __forceinline__ static constexpr T identity() { return T(0); }
  template <class T> __device__ __forceinline__ static T combine(T a, T b) { return a | b; }
  template <class T> __device__ __forceinline__ static void atomic(T *p, T v) {
    atomicOr(p, v);
  }
#if DD_HAS_REDUX
  template <class T> __device__ __forceinline__ static T redux(unsigned mask, T v) {
    return detail::redux_bitwise(mask, v, [](unsigned m, unsigned x) {
      return __reduce_or_sync(m, x);
    });
  }
#endif
};

/// atomicXor: int, unsigned, unsigned long long.
struct bit_xor {
  template <class T> static constexpr bool supports = bit_and::supports<T>;
  template <class T> static constexpr bool has_redux = supports<T>;

  template <class T> __device__ __forceinline__ static constexpr T identity() { return T(0); }
  template <class T> __device__ __forceinline__ static T combine(T a, T b) { return a ^ b; }
  template <class T> __device__ __forceinline__ static void atomic(T *p, T v) {
    atomicXor(p, v);
  }
#if DD_HAS_REDUX
  template <class T> __device__ __forceinline__ static T redux(unsigned mask, T v) {
    return detail::redux_bitwise(mask, v, [](unsigned m, unsigned x) {
      return __reduce_xor_sync(m, x);
    });
  }
#endif
};

} // namespace ops
} // namespace dd

#endif // DD_ATOMIC_OPS_CUH
