//===- dd/warp_reduce.cuh - Reductions over arbitrary lane sets -*- CUDA -*-===//
//
// The reductions behind the aggregated atomics. Unlike CUB's WarpReduce they
// work on *any* set of lanes, including several disjoint groups at once (the
// groups that __match_any_sync returns), without assuming the lanes of a
// group are contiguous or that the warp is converged:
//
//   group_reduce<Op>(active, group, x)   every lane of `active` calls it,
//       each with its own `group` (a partition of `active`, e.g. from
//       __match_any_sync(active, key)); returns, in the lowest lane of each
//       group, the Op-reduction of x over that group. Other lanes get a
//       partial value they must ignore.
//
//   warp_inclusive_sum(x)   every lane of the warp calls it; lane k gets
//       x summed over lanes 0..k (the ranges laid end to end of
//       dd::lb::WarpScan and of ADDS's flat expansion).
//
// Paths, fastest first:
//   1. __reduce_*_sync (sm_80+, 32-bit integers, and 64-bit integers through
//      32-bit parts; see atomic_ops.cuh): one instruction per group, each lane
//      passes its own group as the member mask. Concurrent calls with
//      disjoint masks are what the *_sync contract allows (it is the
//      pattern of CUDA's __match_any_sync examples and cooperative_groups'
//      labeled_partition).
//   2. The whole warp is one group (group == 0xffffffff): a butterfly of
//      five __shfl_xor_sync rounds.
//   3. Otherwise a segmented tree (below): ceil(log2(largest group)) rounds,
//      each one shuffle, two votes and a few integer operations, all over
//      `active`, so every lane executes the same number of collectives.
//
//===----------------------------------------------------------------------===//
#ifndef DD_WARP_REDUCE_CUH
#define DD_WARP_REDUCE_CUH

#include "dd/atomic_ops.cuh"
#include "dd/warp.cuh"

namespace dd {
namespace detail {

/// Butterfly reduction over all 32 lanes; every lane ends with the total.
/// Precondition: all 32 lanes call it (the mask is the full warp).
template <class Op, class T> __device__ __forceinline__ T butterfly_reduce(T x) {
#pragma unroll
  for (unsigned d = 1; d < warp_size; d <<= 1)
    x = Op::combine(x, __shfl_xor_sync(full_warp_mask, x, d));
  return x;
}

/// Segmented tree reduction: each group of `active` (every lane passes its
/// own group, a subset of `active` holding the lane) is reduced into its
/// lowest lane.
///
/// Round d = 1, 2, 4, ...: a group member of rank r (its position among the
/// members) is *alive* when r % d == 0 and then holds the combination of
/// ranks [r, r + d). Members with r % 2d == 0 receive from the next alive
/// member above them, which is rank r + d. After round d the alive members
/// are those that received (r % 2d == 0). The next alive member is found
/// with a find-first-set over (alive & lanes above me), so no lane needs to
/// know another group's layout; one ballot per round rebuilds `alive`.
/// The loop ends, uniformly over `active`, when no receiver has a partner
/// left: then every group has at most d members and its rank 0 holds the
/// whole reduction.
///
/// Precondition: every lane of `active` calls this with the same `active`.
template <class Op, class T>
__device__ __forceinline__ T tree_reduce(unsigned active, unsigned group, T x) {
  const unsigned rank = rank_in(group);
  const unsigned above_me = lanemask_gt();
  unsigned alive = group;
  for (unsigned d = 1; d < warp_size; d <<= 1) {
    const unsigned partners = alive & above_me;
    const bool receiver = (rank & (2 * d - 1)) == 0;
    const bool receives = receiver && partners != 0;
    if (!__any_sync(active, receives))
      break;
    // Lanes without a partner read their own value: a defined source, unused.
    const int source = partners ? __ffs(partners) - 1 : static_cast<int>(lane_id());
    const T y = __shfl_sync(active, x, source);
    if (receives)
      x = Op::combine(x, y);
    alive = group & __ballot_sync(active, receiver);
  }
  return x;
}

/// Reduction of x over each group of `active`, valid in the group's lowest
/// lane (see the file comment for the paths).
///
/// @tparam Op  an operation tag of atomic_ops.cuh (ops::add, ops::min, ...)
/// @tparam T   an element type Op supports
/// @param active  the lanes taking part; every lane of it calls this
/// @param group   the calling lane's group: a subset of `active` holding the
///                caller; the groups of all callers partition `active`
template <class Op, class T>
__device__ __forceinline__ T group_reduce(unsigned active, unsigned group, T x) {
#if DD_HAS_REDUX
  if constexpr (Op::template has_redux<T>) {
    return Op::redux(group, x);
  } else
#endif
  {
    // group == full implies every lane is in this one group, so all lanes
    // take the same branch and the full-mask butterfly is legal.
    if (group == full_warp_mask)
      return butterfly_reduce<Op>(x);
    return tree_reduce<Op>(active, group, x);
  }
}

/// Reduction of x over `mask`, every lane of which calls this (one group).
template <class Op, class T> __device__ __forceinline__ T mask_reduce(unsigned mask, T x) {
  return group_reduce<Op>(mask, mask, x);
}

} // namespace detail

/// Inclusive prefix sum of x over the 32 lanes (Kogge-Stone, five
/// shuffles): lane k gets the sum of lanes 0..k. All 32 lanes call it.
template <class T> __device__ __forceinline__ T warp_inclusive_sum(T x) {
  const unsigned lane = lane_id();
#pragma unroll
  for (unsigned d = 1; d < warp_size; d *= 2) {
    const T below = __shfl_up_sync(full_warp_mask, x, d);
    if (lane >= d)
      x += below;
  }
  return x;
}

} // namespace dd

#endif // DD_WARP_REDUCE_CUH
