//===- dd/atomics.cuh - Warp-aggregated and monotonic atomics ---*- CUDA -*-===//
//
// Drop-in replacements for CUDA atomics whose result is not used, after
// Egielski et al., "Using Massive Atomics Operations for Massively Parallel
// GPU Applications" (atomicSR, atomicVR, atomicSS), and Nasre et al.,
// "Atomic-free Irregular Computations on GPUs" §4.1 (monotonicity). The
// decoupler atomics pass rewrites `atomicAdd(...)` etc. into these calls;
// they are also meant to be written by hand.
//
//   OP  in add, sub, min, max, and, or, xor       T  (CUDA's atomic types)
//   add: int, unsigned, unsigned long long, float, double
//   sub: int, unsigned, unsigned long long (the last as atomicAdd of -v)
//   min, max: int, unsigned, long long, unsigned long long
//   and, or, xor: int, unsigned, unsigned long long
//
//   dd::atomic_OP_sr(T *address, T value)       match and reduce (atomicSR)
//   dd::atomic_OP_vr(T *address, T value)       vote and reduce  (atomicVR)
//   dd::atomic_OP_uniform(T *address, T value)  caller promises one address
//   dd::atomic_OP_auto(T *address, T value)     vr on global memory, the
//                                               plain atomic on shared
//   dd::atomic_inc_{sr,vr,uniform}(unsigned *address, unsigned limit)
//   dd::atomic_min_filtered / atomic_max_filtered(T *address, T value)
//                                               the atomic only where it
//                                               would change the word
//   dd::monotonic_min / monotonic_max(T *address, T value)
//   dd::remapped_warp / remapped_thread_index   (atomicSS, scatter.cuh; the
//                                                host side is scatter_remap.h)
//
// The value parameter is `identity_t<T>`: T comes from the address alone, so
// `dd::atomic_add_sr(&bins[k], 1)` works for `unsigned *bins`.
//
// Contract (every variant but *_filtered and monotonic_*): the effect on memory is exactly
// that of each calling lane issuing its own CUDA atomic, for ANY set of
// calling lanes: divergent code, lanes that exited, partial warps of blocks
// whose size is not a multiple of 32, global or shared addresses. Each call
// reads __activemask() once on entry and then uses only *_sync intrinsics
// with that mask (or subsets of it that every member reaches), so it never
// assumes the warp is converged (Volta's independent thread scheduling).
// Results are not returned: the pass only rewrites calls whose result is
// unused. The atomics the leaders issue are CUDA's own, device scope.
//
// Floating point: aggregation computes a warp-level partial sum first, which
// reorders the additions; the result can differ from per-lane atomics in the
// last bits (by at most the usual bound for reordered summation, γ_n Σ|x|).
// Per-lane float atomics are not deterministic either, but programs may rely
// on their exact rounding, so the pass aggregates float/double atomicAdd only
// under the opt-in flag --atomics-float. The integer operations are exact.
//
// Which variant (H200 measurements in docs/PERF.md, "Atomics"). Two facts
// of the hardware decide: (1) the L2 applies one warp's atomic instruction
// to one cache line as one transaction whose time grows with the number of
// lanes on the *same word* (32 lanes on one word cost ~30x one lane on
// it), so what pays is one atomic instruction per warp with no word
// repeated; (2) __match_any_sync is expensive when the lanes hold many
// distinct values: on a histogram of 65536 bins it makes the kernel 2.3x
// slower than plain atomics, while at 4096 bins the L2 hides it.
//   sr       __match_any_sync groups the lanes by address, each group is
//            reduced (one __reduce_*_sync on sm_80+ for 32-bit integers) and
//            its lowest lane issues one atomic: the best at high contention
//            (30x at 1 bin, 7.5x at 8 bins), a loss when nothing collides
//            (0.43x at 65536 bins).
//   vr       samples DD_VR_SAMPLES lanes and ballots the lanes that share
//            each sampled address (the paper's vote); only if a sampled
//            group has DD_VR_THRESHOLD lanes or more do the lanes go on to
//            match-and-reduce (or to one reduction, when the group is every
//            lane); otherwise every lane issues its own atomic. 1.00x of
//            plain atomics when nothing collides, 30x at 1 bin, 7.5x at 8,
//            2.4x at 32; behind sr only where the vote misses groups (Zipf
//            keys over 4096 bins: 1.35x against sr's 1.51x). The choice when
//            contention is unknown.
//   uniform  one reduction over the active lanes and one atomic. Only when
//            all active lanes pass the same address (the pass uses it for
//            addresses its analysis proves scalar); define
//            DD_ATOMICS_CHECK_UNIFORM to trap when the promise is broken.
//            For int and unsigned words nvcc already does the same where it
//            proves the address uniform, so there it gains nothing (0.88x
//            on a shared counter); 21-31x on 64-bit and float counters
//            (docs/atomics.md, "What nvcc already does, and one lane").
// All three issue exactly one atomic instruction per call and warp (the
// leaders' and the plain lanes' atomics together), never one per group.
//
// Architectures: sr, atomic_inc_sr/_uniform and DD_ATOMICS_CHECK_UNIFORM need
// sm_70 (__match_any_sync, __match_all_sync; a static_assert says so where
// they are compiled for an older GPU). vr works below: there a warp whose
// vote finds a group that is not every lane issues plain atomics.
// __reduce_*_sync is used from sm_80 on, shuffles below.
//
//===----------------------------------------------------------------------===//
#ifndef DD_ATOMICS_CUH
#define DD_ATOMICS_CUH

#include <cuda/atomic>

#include "dd/atomic_ops.cuh"
#include "dd/scatter.cuh"
#include "dd/type_traits.cuh"
#include "dd/warp.cuh"
#include "dd/warp_reduce.cuh"

/// The smallest voted group that makes vote-and-reduce aggregate (2..32).
/// The paper (Alg. 2) aggregates a sampled group of x lanes when that costs
/// no more than x plain atomics: x >= log2(x) + s, s being the set-up cost
/// of the reduction in units of one serialized atomic. Here the decision is
/// for the warp (aggregate everything, or nothing), and its cost is one
/// match and one reduction, SM-local work spread over 132 SMs, while
/// same-address atomics serialize in one L2 slice (global) or one
/// shared-memory bank (shared) for the whole GPU or block. On the H200 the
/// pairs are already worth it: with the vote enabling the match at 2, the
/// 256-bin histogram ran 1.04x and the 32-bin one 2.4x faster than plain
/// atomics, and no histogram was slower. Raise it for latency-bound code where
/// pairs are common but cheap (a sparse matrix with two nonzeros per row).
#ifndef DD_VR_THRESHOLD
#define DD_VR_THRESHOLD 2
#endif
static_assert(DD_VR_THRESHOLD >= 2 && DD_VR_THRESHOLD <= 32,
              "DD_VR_THRESHOLD must be between 2 and 32");

/// How many lanes vote-and-reduce samples (1..8). Each sample is one
/// shuffle of the address and one ballot; the samples are independent, so
/// they issue back to back. An address held by k of 32 lanes escapes s
/// samples with probability about (1 - k/32)^s: with 4 samples a group of 8
/// lanes is found 68% of the time, one of 4 lanes 41%. Measured on the H200
/// (docs/PERF.md): more samples bring vr closer to sr on skewed keys (Zipf,
/// 65536 bins: 3.01, 2.85, 2.63, 2.42 ms for 1, 2, 4, 8 samples; sr 2.28)
/// but lengthen short latency-bound kernels (SpMV on luxembourg_osm: 6.0 us
/// with 4 samples, 6.8 with 8; plain atomics 5.5); 4 is the compromise.
#ifndef DD_VR_SAMPLES
#define DD_VR_SAMPLES 4
#endif
static_assert(DD_VR_SAMPLES >= 1 && DD_VR_SAMPLES <= 8, "DD_VR_SAMPLES must be between 1 and 8");

/// How many compare-and-swap attempts an aggregated atomicInc makes before
/// the group falls back to one atomicInc per lane (detail::inc_groups). A
/// second attempt only helps when other warps touch the word briefly; under
/// sustained contention it is one more failed round trip.
#ifndef DD_INC_CAS_ATTEMPTS
#define DD_INC_CAS_ATTEMPTS 1
#endif
static_assert(DD_INC_CAS_ATTEMPTS >= 1, "DD_INC_CAS_ATTEMPTS must be at least 1");

namespace dd {
namespace detail {

__device__ __forceinline__ unsigned long long address_key(const void *address) {
  return reinterpret_cast<unsigned long long>(address);
}

/// __match_any_sync(active, value) (sm_70+). Caller is the calling
/// template's type parameter, so that the check fires only where that
/// template is instantiated for an older GPU.
template <class Caller, class V>
__device__ __forceinline__ unsigned match_any(unsigned active, V value) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  return __match_any_sync(active, value);
#else
  static_assert(device_arch_at_least<700, Caller>,
                "dd::atomic_*_sr and dd::atomic_inc_sr/_uniform need sm_70 or newer for "
                "__match_any_sync (dd::atomic_*_vr and _uniform work on older GPUs)");
  return 0;
#endif
}

/// Whether every lane of `active` passes the same value (__match_all_sync,
/// sm_70+), for DD_ATOMICS_CHECK_UNIFORM.
template <class Caller> __device__ __forceinline__ bool match_all(unsigned active, unsigned long long value) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  int same = 0;
  __match_all_sync(active, value, &same);
  return same != 0;
#else
  static_assert(device_arch_at_least<700, Caller>,
                "DD_ATOMICS_CHECK_UNIFORM needs sm_70 or newer for __match_all_sync");
  return true;
#endif
}

/// The lanes of `active` that pass the caller's address (every lane of
/// `active` calls this). When the high 32 bits of the addresses agree
/// across `active` (one 4 GiB window: always for shared memory, nearly
/// always for one global array) the low words are matched, which measured
/// faster than matching the 64-bit addresses (0.43 against 0.56 ms on the
/// 65536-bin histogram): one shuffle and one vote buy a narrower match.
/// Define DD_ATOMICS_NO_MATCH32 to always match 64 bits.
template <class Caller>
__device__ __forceinline__ unsigned match_address(unsigned active, unsigned long long key) {
#if !defined(DD_ATOMICS_NO_MATCH32)
  const unsigned hi = static_cast<unsigned>(key >> 32);
  if (__all_sync(active, hi == __shfl_sync(active, hi, __ffs(active) - 1)))
    return match_any<Caller>(active, static_cast<unsigned>(key));
#endif
  return match_any<Caller>(active, key);
}

/// Match and reduce (atomicSR, with __match_any_sync instead of the paper's
/// scan: the paper's Alg. 1 only finds groups of adjacent lanes).
///
/// @tparam Op  operation tag (ops::add, ...), T one of its supported types
template <class Op, class T>
__device__ __forceinline__ void atomic_sr(T *address, T value) {
  static_assert(Op::template supports<T>, "no CUDA atomic for this operation and type");
  const unsigned active = __activemask();
  const unsigned group = match_address<T>(active, address_key(address));
  const T total = group_reduce<Op>(active, group, value);
  if (is_lowest_lane_of(group))
    Op::atomic(address, total);
}

/// A lane of `mask` chosen by `seed`: the first lane of `mask` at or above
/// seed's top five bits, wrapping around. Uniform over the caller's lanes
/// when `mask` and `seed` are.
__device__ __forceinline__ unsigned pick_lane(unsigned mask, unsigned seed) {
  const unsigned at_or_above = mask & (full_warp_mask << (seed >> 27));
  return __ffs(at_or_above ? at_or_above : mask) - 1;
}

/// A pseudo-random seed every lane of `mask` agrees on: the lowest lane's
/// clock, hashed, broadcast. (A per-lane clock read is not uniform: lanes
/// need not execute the read together.)
__device__ __forceinline__ unsigned uniform_seed(unsigned mask) {
  const unsigned clock_bits = static_cast<unsigned>(clock()) * 0x9e3779b1u;
  return __shfl_sync(mask, clock_bits, __ffs(mask) - 1);
}

/// The seed of sample j: a Weyl step from the first, so the samples' top
/// bits (the lanes they start from) are spread over the warp.
__device__ __forceinline__ unsigned sample_seed(unsigned seed, unsigned j) {
  return seed + j * 0x9e3779b9u;
}

/// The vote of vote-and-reduce (the paper's Alg. 2, lines 5-8): `Samples`
/// lanes of `active`, chosen pseudo-randomly, broadcast their address and
/// ballot the lanes that share it. Returns the largest voted group if it
/// has at least DD_VR_THRESHOLD lanes, else 0. Every lane of `active` calls
/// it and gets the same answer. Random lanes (rather than the lowest) make
/// a frequent address likely to be found: an address held by k lanes is
/// missed by s samples with probability about (1 - k/32)^s.
template <unsigned Samples>
__device__ __forceinline__ unsigned vote(unsigned active, unsigned long long key) {
  // Fewer active lanes than a group needs: nothing to find. In a loop whose
  // trip count is each lane's own (a vertex's row of a skewed graph), most
  // iterations run one lane, which the samples cost several times its
  // atomic: Indigo's pull-style SSSP and CC on a Kronecker graph ran 0.64x
  // and 0.67x of as written through the full vote, CC 0.78x with this exit
  // (docs/corpus.md); the atomics pass leaves such loops' atomics alone.
  if (__popc(active) < DD_VR_THRESHOLD)
    return 0;
  const unsigned seed = uniform_seed(active);
  unsigned best = 0;
#pragma unroll
  for (unsigned j = 0; j < Samples; ++j) {
    const unsigned long long sampled =
        __shfl_sync(active, key, pick_lane(active, sample_seed(seed, j)));
    const unsigned voters = __ballot_sync(active, key == sampled);
    if (__popc(voters) > __popc(best))
      best = voters;
  }
  return __popc(best) >= DD_VR_THRESHOLD ? best : 0;
}

/// Vote and reduce (atomicVR). The vote (above) decides, for the whole
/// warp at once:
///   no sampled group reaches the threshold -> every lane issues its own
///       atomic (the paper's fallback to plain atomics): little collides,
///       and plain atomics cost nothing extra;
///   the voted group is every active lane   -> one reduction (no match);
///   otherwise                              -> match and reduce all lanes
///       (the paper's fallback to SR): the voted group proves contention,
///       and the match also catches the groups no sample hit; below sm_70
///       (no __match_any_sync) every lane issues its own atomic instead.
/// Whichever way, the lanes leave the decision together and issue one
/// atomic instruction (leaders with totals, or every lane with its own
/// value): one L2 transaction per cache line, as plain atomics would.
///
/// @tparam Samples  lanes sampled by the vote (DD_VR_SAMPLES)
template <class Op, unsigned Samples = DD_VR_SAMPLES, class T>
__device__ __forceinline__ void atomic_vr(T *address, T value) {
  static_assert(Op::template supports<T>, "no CUDA atomic for this operation and type");
  const unsigned active = __activemask();
  const unsigned long long key = address_key(address);
  T total = value;
  bool issue = true;
  const unsigned voted = vote<Samples>(active, key);
  if (voted == active) { // one address (uniform over active, like `voted`)
    total = mask_reduce<Op>(active, value);
    issue = is_lowest_lane_of(active);
  } else if (voted) {
    if constexpr (device_arch_at_least<700, T>) {
      const unsigned group = match_address<T>(active, key);
      total = group_reduce<Op>(active, group, value);
      issue = is_lowest_lane_of(group);
    }
  }
  if (issue)
    Op::atomic(address, total);
}

/// Vote and reduce on global memory, the plain atomic on shared memory:
/// shared-memory atomics are native instructions of the SM (sm_60+), and a
/// per-warp histogram in shared memory ran 10x slower through the vote than
/// as written (docs/PERF.md). Which one is decided per lane by the address
/// (isspacep, one instruction), so generic pointers of either kind work.
template <class Op, class T>
__device__ __forceinline__ void atomic_auto(T *address, T value) {
  if (__isShared(address))
    Op::atomic(address, value);
  else
    atomic_vr<Op>(address, value);
}

/// One reduction over the active lanes and one atomic by the lowest.
template <class Op, class T>
__device__ __forceinline__ void atomic_uniform(T *address, T value) {
  static_assert(Op::template supports<T>, "no CUDA atomic for this operation and type");
  const unsigned active = __activemask();
#if defined(DD_ATOMICS_CHECK_UNIFORM)
  if (!match_all<T>(active, address_key(address)))
    __trap();
#endif
  const T total = mask_reduce<Op>(active, value);
  if (is_lowest_lane_of(active))
    Op::atomic(address, total);
}

/// n applications (n >= 1) of atomicInc's update f(x) = x >= limit ? 0 : x+1,
/// in closed form. f maps 0..limit onto itself as a cycle of period limit+1
/// (0 -> 1 -> ... -> limit -> 0), and sends any x > limit to 0. Hence
///   x <= limit:  f^n(x) = (x + n)     mod (limit + 1)
///   x >  limit:  f^n(x) = (n - 1)     mod (limit + 1)   (one step to 0 first)
/// computed in 64 bits (limit + 1 may be 2^32). Since n <= 32 and the start
/// is <= limit, the sum wraps at most once unless the period is below 32.
__device__ __forceinline__ unsigned inc_n(unsigned x, unsigned limit, unsigned n) {
  const unsigned long long period = static_cast<unsigned long long>(limit) + 1;
  unsigned long long r = x <= limit ? static_cast<unsigned long long>(x) + n
                                    : static_cast<unsigned long long>(n - 1);
  if (r >= period)
    r = r - period < period ? r - period : r % period;
  return static_cast<unsigned>(r);
}

/// Applies the increments of every lane of `active`, which all call this,
/// each with its `group`: the lanes of `active` with its address and limit
/// (the groups partition `active`). The lowest lane of each group of n > 1
/// reads the word and tries to replace it by the n-fold increment with one
/// atomicCAS (DD_INC_CAS_ATTEMPTS attempts; a failure returns the current
/// word, the next attempt's expectation). The lanes of groups whose CAS did
/// not land, and lanes alone in their group, then issue their own atomicInc:
/// a failed CAS changes nothing, so the effect stays exactly one increment
/// per lane. An unbounded CAS loop would be exact too, but under contention
/// from other warps only about one CAS per word succeeds per L2 round trip
/// (the others carry stale expectations), far below the rate at which the
/// L2 applies native atomicInc; the bound caps that loss. The loads, the
/// first CAS and the fallback atomicInc are each one instruction for the
/// whole warp, so the L2 sees one transaction per cache line for each.
__device__ __forceinline__ void inc_groups(unsigned active, unsigned group, unsigned *address,
                                           unsigned limit) {
  const unsigned n = __popc(group);
  const int leader = __ffs(group) - 1;
  int done = 0;
  if (n > 1 && lane_id() == static_cast<unsigned>(leader)) {
    unsigned expected =
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*address).load(
            cuda::memory_order_relaxed);
    for (int attempt = 0; attempt < DD_INC_CAS_ATTEMPTS; ++attempt) {
      const unsigned seen = atomicCAS(address, expected, inc_n(expected, limit, n));
      if (seen == expected) {
        done = 1;
        break;
      }
      expected = seen;
    }
  }
  done = __shfl_sync(active, done, leader);
  if (!done)
    atomicInc(address, limit);
}

} // namespace detail

// ---------------------------------------------------------------------------
// Match and reduce: dd::atomic_OP_sr(address, value)
// ---------------------------------------------------------------------------
// @tparam T  the element type, deduced from `address` only.
template <class T> __device__ __forceinline__ void atomic_add_sr(T *address, identity_t<T> value) { detail::atomic_sr<ops::add>(address, value); }
template <class T> __device__ __forceinline__ void atomic_sub_sr(T *address, identity_t<T> value) { detail::atomic_sr<ops::sub>(address, value); }
template <class T> __device__ __forceinline__ void atomic_min_sr(T *address, identity_t<T> value) { detail::atomic_sr<ops::min>(address, value); }
template <class T> __device__ __forceinline__ void atomic_max_sr(T *address, identity_t<T> value) { detail::atomic_sr<ops::max>(address, value); }
template <class T> __device__ __forceinline__ void atomic_and_sr(T *address, identity_t<T> value) { detail::atomic_sr<ops::bit_and>(address, value); }
template <class T> __device__ __forceinline__ void atomic_or_sr (T *address, identity_t<T> value) { detail::atomic_sr<ops::bit_or>(address, value); }
template <class T> __device__ __forceinline__ void atomic_xor_sr(T *address, identity_t<T> value) { detail::atomic_sr<ops::bit_xor>(address, value); }

// ---------------------------------------------------------------------------
// Vote and reduce: dd::atomic_OP_vr(address, value)
// ---------------------------------------------------------------------------
template <class T> __device__ __forceinline__ void atomic_add_vr(T *address, identity_t<T> value) { detail::atomic_vr<ops::add>(address, value); }
template <class T> __device__ __forceinline__ void atomic_sub_vr(T *address, identity_t<T> value) { detail::atomic_vr<ops::sub>(address, value); }
template <class T> __device__ __forceinline__ void atomic_min_vr(T *address, identity_t<T> value) { detail::atomic_vr<ops::min>(address, value); }
template <class T> __device__ __forceinline__ void atomic_max_vr(T *address, identity_t<T> value) { detail::atomic_vr<ops::max>(address, value); }
template <class T> __device__ __forceinline__ void atomic_and_vr(T *address, identity_t<T> value) { detail::atomic_vr<ops::bit_and>(address, value); }
template <class T> __device__ __forceinline__ void atomic_or_vr (T *address, identity_t<T> value) { detail::atomic_vr<ops::bit_or>(address, value); }
template <class T> __device__ __forceinline__ void atomic_xor_vr(T *address, identity_t<T> value) { detail::atomic_vr<ops::bit_xor>(address, value); }

// ---------------------------------------------------------------------------
// Shared memory as written, global memory vote and reduce:
// dd::atomic_OP_auto(address, value) (what the pass emits when it cannot tell
// which memory a pointer points to)
// ---------------------------------------------------------------------------
template <class T> __device__ __forceinline__ void atomic_add_auto(T *address, identity_t<T> value) { detail::atomic_auto<ops::add>(address, value); }
template <class T> __device__ __forceinline__ void atomic_sub_auto(T *address, identity_t<T> value) { detail::atomic_auto<ops::sub>(address, value); }
template <class T> __device__ __forceinline__ void atomic_min_auto(T *address, identity_t<T> value) { detail::atomic_auto<ops::min>(address, value); }
template <class T> __device__ __forceinline__ void atomic_max_auto(T *address, identity_t<T> value) { detail::atomic_auto<ops::max>(address, value); }
template <class T> __device__ __forceinline__ void atomic_and_auto(T *address, identity_t<T> value) { detail::atomic_auto<ops::bit_and>(address, value); }
template <class T> __device__ __forceinline__ void atomic_or_auto (T *address, identity_t<T> value) { detail::atomic_auto<ops::bit_or>(address, value); }
template <class T> __device__ __forceinline__ void atomic_xor_auto(T *address, identity_t<T> value) { detail::atomic_auto<ops::bit_xor>(address, value); }

// ---------------------------------------------------------------------------
// Warp-uniform address: dd::atomic_OP_uniform(address, value)
// Precondition: every active lane passes the same address.
// ---------------------------------------------------------------------------
template <class T> __device__ __forceinline__ void atomic_add_uniform(T *address, identity_t<T> value) { detail::atomic_uniform<ops::add>(address, value); }
template <class T> __device__ __forceinline__ void atomic_sub_uniform(T *address, identity_t<T> value) { detail::atomic_uniform<ops::sub>(address, value); }
template <class T> __device__ __forceinline__ void atomic_min_uniform(T *address, identity_t<T> value) { detail::atomic_uniform<ops::min>(address, value); }
template <class T> __device__ __forceinline__ void atomic_max_uniform(T *address, identity_t<T> value) { detail::atomic_uniform<ops::max>(address, value); }
template <class T> __device__ __forceinline__ void atomic_and_uniform(T *address, identity_t<T> value) { detail::atomic_uniform<ops::bit_and>(address, value); }
template <class T> __device__ __forceinline__ void atomic_or_uniform (T *address, identity_t<T> value) { detail::atomic_uniform<ops::bit_or>(address, value); }
template <class T> __device__ __forceinline__ void atomic_xor_uniform(T *address, identity_t<T> value) { detail::atomic_uniform<ops::bit_xor>(address, value); }

// ---------------------------------------------------------------------------
// atomicInc(address, limit), aggregated: the lanes that increment one word
// with one limit become one n-fold increment (detail::inc_n, closed form)
// applied with compare-and-swap (detail::inc_groups). Lanes that pass one
// address with different limits are different groups, applied one after the
// other, which is one of the orders per-lane atomics could have taken.
// ---------------------------------------------------------------------------

// @tparam T  unsigned (atomicInc's only type), deduced from `address`.

/// Groups by (address, limit) with two __match_any_sync.
template <class T> __device__ __forceinline__ void atomic_inc_sr(T *address, identity_t<T> limit) {
  static_assert(std::is_same_v<T, unsigned>, "atomicInc exists for unsigned int only");
  const unsigned active = __activemask();
  const unsigned group = detail::match_address<T>(active, detail::address_key(address)) &
                         detail::match_any<T>(active, limit);
  detail::inc_groups(active, group, address, limit);
}

/// Votes on addresses as atomic_OP_vr; when the vote finds a group, groups
/// by (address, limit) as atomic_inc_sr, else every lane uses atomicInc (as
/// every lane does below sm_70, which cannot group).
template <class T> __device__ __forceinline__ void atomic_inc_vr(T *address, identity_t<T> limit) {
  static_assert(std::is_same_v<T, unsigned>, "atomicInc exists for unsigned int only");
  const unsigned active = __activemask();
  const unsigned long long key = detail::address_key(address);
  if constexpr (detail::device_arch_at_least<700, T>) {
    if (detail::vote<DD_VR_SAMPLES>(active, key)) {
      const unsigned group =
          detail::match_address<T>(active, key) & detail::match_any<T>(active, limit);
      detail::inc_groups(active, group, address, limit);
      return;
    }
  }
  atomicInc(address, limit);
}

/// Precondition: every active lane passes the same address (the limits may
/// differ: lanes are grouped by limit).
template <class T> __device__ __forceinline__ void atomic_inc_uniform(T *address, identity_t<T> limit) {
  static_assert(std::is_same_v<T, unsigned>, "atomicInc exists for unsigned int only");
  const unsigned active = __activemask();
#if defined(DD_ATOMICS_CHECK_UNIFORM)
  if (!detail::match_all<T>(active, detail::address_key(address)))
    __trap();
#endif
  detail::inc_groups(active, detail::match_any<T>(active, limit), address, limit);
}

// ---------------------------------------------------------------------------
// Filtered minimum and maximum: `if (value < *address) atomicMin(address,
// value)`, the load relaxed and device-scope. Where the word only ever moves
// one way (only atomicMin, or only atomicMax, writes it while the kernel
// runs), a load that already finds a value at or past `value` proves the
// atomic would change nothing: a later value in the word's modification
// order is only further past it. So the effect on memory is exactly that of
// the atomic, with no update lost; what it saves is the atomic itself where
// many lanes offer values to a word that has already moved past them (label
// propagation, BFS levels and SSSP distances without a check of their own).
// Where the word is also written otherwise (stored, reset, moved the other
// way) while the kernel runs, the skipped atomic may matter: the caller
// (the pass, under `#pragma dd monotonic`) is told it does not happen.
//
// This is what `#pragma dd monotonic` makes of atomicMin/atomicMax: it never
// costs rounds, unlike monotonic_min/max below, whose lost updates the
// H100 and H200 measured at 0.62x on small SSSP graphs and 0.84-0.90x on
// Delaunay refinement (docs/PERF.md).
//
// @tparam T  int, unsigned, long long or unsigned long long (CUDA's
//            atomicMin/atomicMax), deduced from `address`.
// ---------------------------------------------------------------------------
template <class T>
__device__ __forceinline__ void atomic_min_filtered(T *address, identity_t<T> value) {
  cuda::atomic_ref<T, cuda::thread_scope_device> word(*address);
  if (value < word.load(cuda::memory_order_relaxed))
    ::atomicMin(address, value);
}

template <class T>
__device__ __forceinline__ void atomic_max_filtered(T *address, identity_t<T> value) {
  cuda::atomic_ref<T, cuda::thread_scope_device> word(*address);
  if (word.load(cuda::memory_order_relaxed) < value)
    ::atomicMax(address, value);
}

// ---------------------------------------------------------------------------
// Monotonic updates (Nasre et al. §4.1): `if (value < *address) *address =
// value` with a relaxed device-scope load and store, no read-modify-write.
//
// This is NOT an atomic minimum: two lanes can both read 10, one store 5 and
// the other 7 after it, and 7 stays (a lost update). It is correct where the
// value only ever moves one way and the computation is a topology-driven
// fixed point, re-run until a round changes nothing (Bellman-Ford SSSP, BFS
// levels, label propagation): the lane that lost its update still holds the
// smaller value, sees it is smaller than memory in the next round and stores
// it again; a round in which nothing is stored ends the loop with every word
// at the minimum of all values offered, as with atomicMin. (In a round where
// some lane stores, every stored value is below what that lane read, and
// every value read is at most the round's starting value, so the word ends
// the round strictly smaller: "nothing changed" is detectable by comparing
// memory, or by a flag set next to the store.) Data-driven algorithms, which
// process an element only once, must keep atomicMin.
//
// The relaxed atomic_ref accesses (ld/st.relaxed.gpu) make the race defined
// behaviour and keep the compiler from caching or tearing the word; they
// cost what plain loads and stores cost.
//
// @tparam T  any type cuda::atomic_ref supports (integers, float, double),
//            deduced from `address`; value converts to T.
// ---------------------------------------------------------------------------
template <class T>
__device__ __forceinline__ void monotonic_min(T *address, identity_t<T> value) {
  cuda::atomic_ref<T, cuda::thread_scope_device> word(*address);
  if (value < word.load(cuda::memory_order_relaxed))
    word.store(value, cuda::memory_order_relaxed);
}

template <class T>
__device__ __forceinline__ void monotonic_max(T *address, identity_t<T> value) {
  cuda::atomic_ref<T, cuda::thread_scope_device> word(*address);
  if (word.load(cuda::memory_order_relaxed) < value)
    word.store(value, cuda::memory_order_relaxed);
}

} // namespace dd

#endif // DD_ATOMICS_CUH
