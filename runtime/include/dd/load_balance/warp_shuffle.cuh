//===- dd/load_balance/warp_shuffle.cuh - Vertex-based mapping -*- CUDA -*-===//
//
// Vertex-based mapping with warp shuffle (Busato and Bombieri's first
// technique, ../shared/papers/load-balancing-graph-traversal.txt, 3.1): the
// lanes of a warp form groups of GroupSize threads; each lane holds one
// vertex's edge range, and a group visits the ranges of its lanes one after
// the other, each broadcast to the group with a shuffle, its threads taking
// consecutive edges (coalesced). No shared memory and no barrier: on graphs
// whose degrees are small and even (road networks, meshes) there is nothing
// for a block-wide stage to gather, and a group of about the mean degree
// keeps its threads busy. A hub costs its group degree / GroupSize rounds
// while the other groups of the warp wait: for skewed degrees use
// ThreadWarpBlock or the device-wide search.
//
//   using Expand = dd::lb::WarpShuffle<8, Dist>;
//   __shared__ typename Expand::TempStorage temp;      // empty
//   Expand(temp).run(begin, end, du, [&](Dist du, std::uint32_t e) { ... });
//
// Contract: the lanes of a warp call run() together (all 32, converged), the
// same number of times (a lane with nothing to expand passes begin == end).
// op(item, e) is called exactly once for every edge e of every lane's
// range, with that lane's item, from a lane of the same warp, in no
// particular order and possibly in divergent code.
//
//===----------------------------------------------------------------------===//
#ifndef DD_LOAD_BALANCE_WARP_SHUFFLE_CUH
#define DD_LOAD_BALANCE_WARP_SHUFFLE_CUH

#include <cstdint>

#include "dd/warp.cuh"

namespace dd::lb {

/// @tparam GroupSize  threads that share a range: 1, 2, 4, 8, 16 or 32
/// @tparam Item       what each edge visit needs from its vertex, a type
///                    __shfl_sync accepts
template <unsigned GroupSize, class Item> class WarpShuffle {
  static_assert(GroupSize >= 1 && GroupSize <= warp_size && (GroupSize & (GroupSize - 1)) == 0,
                "groups are 1, 2, 4, 8, 16 or 32 lanes");

public:
  /// Nothing: the groups talk through shuffles.
  struct TempStorage {};

  __device__ explicit WarpShuffle(TempStorage &) {}

  template <class EdgeOp>
  __device__ __forceinline__ void run(std::uint32_t begin, std::uint32_t end, Item item,
                                      EdgeOp &&op) {
    const unsigned rank = lane_id() % GroupSize;
    // Ranges of the group's lanes, one at a time, skipping empty ones: the
    // ballot of non-empty ranges, cut to this group's lanes.
    const unsigned group_first = lane_id() - rank;
    const unsigned group_mask =
        (GroupSize == warp_size ? full_warp_mask : ((1u << GroupSize) - 1u)) << group_first;
    unsigned pending = __ballot_sync(full_warp_mask, end > begin) & group_mask;
    // Every lane of the warp runs the same number of rounds (the busiest
    // group's), so that the shuffles see all 32 lanes.
    unsigned rounds = __popc(pending);
    for (unsigned offset = GroupSize; offset < warp_size; offset *= 2)
      rounds = max(rounds, __shfl_xor_sync(full_warp_mask, rounds, offset));
    for (unsigned r = 0; r < rounds; ++r) {
      // The same in every lane of a group: whether it has a range left.
      const bool has = pending != 0;
      const unsigned owner = has ? __ffs(pending) - 1 : lane_id();
      pending &= pending - 1;
      const std::uint32_t first = __shfl_sync(full_warp_mask, begin, owner);
      const std::uint32_t last = __shfl_sync(full_warp_mask, end, owner);
      const Item owned = __shfl_sync(full_warp_mask, item, owner);
      if (!has)
        continue;
      for (std::uint32_t e = first + rank; e < last; e += GroupSize)
        op(owned, e);
    }
  }
};

} // namespace dd::lb

#endif // DD_LOAD_BALANCE_WARP_SHUFFLE_CUH
