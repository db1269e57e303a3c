//===- dd/load_balance.cuh - Spreading a frontier's edges over threads -*- CUDA -*-===//
//
// The load-balancing strategies of graph traversal (Busato and Bombieri,
// ../shared/papers/load-balancing-graph-traversal.txt), as building blocks
// every traversal of the project uses. Each takes, per thread, one item's
// range of edges [begin, end) and an item value (a distance, a level), and
// calls op(item, e) once per edge, from whichever thread the strategy
// chooses:
//
//   dd::lb::ThreadWarpBlock<Threads, Item>  block, warp and thread stages by
//                                           range length (Merrill et al.'s
//                                           TWC); the block synchronizes
//   dd::lb::WarpShuffle<Group, Item>        vertex-based mapping: groups of
//                                           Group lanes take their lanes'
//                                           ranges in turn (shuffles only)
//   dd::lb::WarpScan<Item>                  scan-based mapping: a warp
//                                           prefix sum, 32 edges per round
//   dd::lb::DeviceSearch<Threads>           the whole grid: equal chunks of
//                                           all ranges, a binary search per
//                                           edge (with dd::lb::SearchOffsets
//                                           on the host)
//
// The first three share one interface (TempStorage, run(begin, end, item,
// op)) and can be swapped in a kernel; DeviceSearch takes the frontier's
// prefix sums instead. Which one pays depends on the degrees: docs/sssp.md,
// "Load balancing", has the measurements and the choice dd-sssp makes
// (--lb).
//
//===----------------------------------------------------------------------===//
#ifndef DD_LOAD_BALANCE_CUH
#define DD_LOAD_BALANCE_CUH

#include "dd/load_balance/device_search.cuh"
#include "dd/load_balance/thread_warp_block.cuh"
#include "dd/load_balance/warp_scan.cuh"
#include "dd/load_balance/warp_shuffle.cuh"

#endif // DD_LOAD_BALANCE_CUH
