//===- dd/load_balance/warp_scan.cuh - Scan-based mapping -*- CUDA -*-===//
//
// Scan-based mapping (Busato and Bombieri's second technique,
// ../shared/papers/load-balancing-graph-traversal.txt, 3.2): the lanes of a
// warp lay their ranges end to end with a warp prefix sum of their sizes
// (shuffles), and the warp walks the concatenation 32 edges at a time, lane
// k taking edge k of the round: each lane finds the range its edge falls in
// by a binary search over the 32 prefix sums, five shuffles. Every lane is
// busy in every round but the last, whatever the degrees; there is no
// barrier and no shared memory. A hub still costs its warp degree / 32
// rounds: hubs beyond a warp's share belong to a block or grid stage.
//
//   using Expand = dd::lb::WarpScan<Dist>;
//   __shared__ typename Expand::TempStorage temp;      // empty
//   Expand(temp).run(begin, end, du, [&](Dist du, std::uint32_t e) { ... });
//
// Contract: the lanes of a warp call run() together (all 32, converged), the
// same number of times (a lane with nothing to expand passes begin == end);
// the 32 ranges of one call hold fewer than 2^32 edges together. op(item, e)
// is called exactly once for every edge e of every lane's range, with that
// lane's item, from a lane of the same warp, in no particular order and
// possibly in divergent code.
//
//===----------------------------------------------------------------------===//
#ifndef DD_LOAD_BALANCE_WARP_SCAN_CUH
#define DD_LOAD_BALANCE_WARP_SCAN_CUH

#include <cstdint>

#include "dd/warp.cuh"
#include "dd/warp_reduce.cuh"

namespace dd::lb {

/// @tparam Item  what each edge visit needs from its vertex, a type
///               __shfl_sync accepts
template <class Item> class WarpScan {
public:
  /// Nothing: the warp talks through shuffles.
  struct TempStorage {};

  __device__ explicit WarpScan(TempStorage &) {}

  template <class EdgeOp>
  __device__ __forceinline__ void run(std::uint32_t begin, std::uint32_t end, Item item,
                                      EdgeOp &&op) {
    const unsigned lane = lane_id();
    const std::uint32_t size = end > begin ? end - begin : 0;
    const std::uint32_t inclusive = warp_inclusive_sum(size);
    const std::uint32_t total = __shfl_sync(full_warp_mask, inclusive, warp_size - 1);
    // Edge k of the concatenation is edge `offset + k` of its owner's range
    // (modulo 2^32: the subtraction may wrap, adding k undoes it), so one
    // shuffle per round carries what begin, size and the sum would.
    const std::uint32_t offset = begin - (inclusive - size);
    for (std::uint32_t round = 0; round < total; round += warp_size) {
      const std::uint32_t k = round + lane;
      // The owner of edge k: the first lane whose inclusive sum exceeds k.
      unsigned owner = 0;
#pragma unroll
      for (unsigned step = warp_size / 2; step >= 1; step /= 2) {
        const std::uint32_t probe = __shfl_sync(full_warp_mask, inclusive, owner + step - 1);
        if (probe <= k)
          owner += step;
      }
      const std::uint32_t owner_offset = __shfl_sync(full_warp_mask, offset, owner);
      const Item owned = __shfl_sync(full_warp_mask, item, owner);
      if (k < total)
        op(owned, owner_offset + k);
    }
  }
};

} // namespace dd::lb

#endif // DD_LOAD_BALANCE_WARP_SCAN_CUH
