//===- dd/load_balance/thread_warp_block.cuh - TWC gathering -*- CUDA -*-===//
//
// Cooperative edge expansion: the threads of a block each hold one vertex's
// edge range, and the edges are visited by the block, by a warp or by the
// thread itself according to the range's length. This is the
// "block/warp/thread" neighbour gathering of Merrill, Garland and Grimshaw
// (PPoPP'12), used by LonestarGPU (cooperative edge processing) and Gunrock
// (TWC): a power-law hub is spread over 256 or 32 threads with coalesced
// loads instead of serializing one thread while its warp idles, and a
// road-network vertex of degree 3 costs one ballot and one block vote.
//
//   using Expand = dd::lb::ThreadWarpBlock<256, Dist>;
//   __shared__ typename Expand::TempStorage temp;
//   Expand(temp).run(begin, end, du, [&](Dist du, std::uint32_t e) { relax(du, e); });
//
// Contract: every thread of the block calls run() the same number of times
// (a thread with nothing to expand passes begin == end), since the block and
// warp stages synchronize the block and the full warp; the block has
// BlockThreads threads. op(item, e) is called exactly once for every edge e
// of every thread's range, with that thread's item, from some thread of the
// block, in no particular order and possibly in divergent code.
//
// One of the load-balancing strategies of <dd/load_balance.cuh> (--lb=twc of
// dd-sssp), the default of the project's traversals (docs/sssp.md, "Load
// balancing").
//
//===----------------------------------------------------------------------===//
#ifndef DD_LOAD_BALANCE_THREAD_WARP_BLOCK_CUH
#define DD_LOAD_BALANCE_THREAD_WARP_BLOCK_CUH

#include <cstdint>

#include "dd/warp.cuh"

namespace dd::lb {

/// @tparam BlockThreads  threads per block, a multiple of 32
/// @tparam Item          what each edge visit needs from its vertex (a
///                       distance, a level), a type __shfl_sync accepts
template <unsigned BlockThreads, class Item> class ThreadWarpBlock {
  static_assert(BlockThreads % warp_size == 0, "blocks must be whole warps");
  static_assert(BlockThreads <= warp_size * warp_size, "one ballot word per lane");

public:
  /// Shared memory for the block stage (declare it __shared__).
  struct TempStorage {
    unsigned contenders[BlockThreads / warp_size]; // each warp's ballot of large ranges
    std::uint32_t begin, end;                       // the range the block expands next
    Item item;
  };

  __device__ explicit ThreadWarpBlock(TempStorage &temp) : temp_(temp) {}

  template <class EdgeOp>
  __device__ __forceinline__ void run(std::uint32_t begin, std::uint32_t end, Item item,
                                      EdgeOp &&op) {
    // Block stage: ranges of at least BlockThreads edges, one at a time.
    // Each warp publishes its ballot of such ranges in its own word, and
    // the lowest contending thread of the block owns the round: it
    // publishes its range and drops out. Every shared word has one writer
    // between two barriers (no election race for racecheck to report), and
    // the loop condition's barrier ends the previous round's reads before
    // the next round writes.
    const unsigned lane = lane_id();
    while (__syncthreads_or(end - begin >= BlockThreads)) {
      const unsigned large = __ballot_sync(full_warp_mask, end - begin >= BlockThreads);
      if (lane == 0)
        temp_.contenders[threadIdx.x / warp_size] = large;
      __syncthreads();
      // Lane w looks at warp w's ballot; the first warp with a contender
      // and its lowest contender own the round.
      constexpr unsigned kWarps = BlockThreads / warp_size;
      const unsigned mine = lane < kWarps ? temp_.contenders[lane] : 0;
      const unsigned first = __ffs(__ballot_sync(full_warp_mask, mine != 0)) - 1;
      const unsigned owner =
          first * warp_size + __ffs(__shfl_sync(full_warp_mask, mine, first)) - 1;
      if (owner == threadIdx.x) {
        temp_.begin = begin;
        temp_.end = end;
        temp_.item = item;
        begin = end;
      }
      __syncthreads();
      const std::uint32_t block_end = temp_.end;
      const Item block_item = temp_.item;
      for (std::uint32_t e = temp_.begin + threadIdx.x; e < block_end; e += BlockThreads)
        op(block_item, e);
    }

    // Warp stage: ranges of at least 32 edges, lowest lane first.
    for (;;) {
      const unsigned large = __ballot_sync(full_warp_mask, end - begin >= warp_size);
      if (large == 0)
        break;
      const unsigned leader = __ffs(large) - 1;
      const std::uint32_t warp_begin = __shfl_sync(full_warp_mask, begin, leader);
      const std::uint32_t warp_end = __shfl_sync(full_warp_mask, end, leader);
      const Item warp_item = __shfl_sync(full_warp_mask, item, leader);
      if (lane == leader)
        begin = end;
      for (std::uint32_t e = warp_begin + lane; e < warp_end; e += warp_size)
        op(warp_item, e);
    }

    // Thread stage: what is left is shorter than a warp.
    for (std::uint32_t e = begin; e < end; ++e)
      op(item, e);
  }

private:
  TempStorage &temp_;
};

} // namespace dd::lb

#endif // DD_LOAD_BALANCE_THREAD_WARP_BLOCK_CUH
