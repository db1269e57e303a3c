// Delaunay mesh refinement on the GPU, in rounds: each round a worklist of
// the live bad triangles (cub::DeviceSelect, in slot order, the same for both
// variants), one worker each for the first max_workers of them
// (docs/dmr.md, "On the GPU").
//
//   kLocks   one kernel a round; a worker takes each triangle it reads with a
//            compare-and-swap lock (and gives them all back on a conflict),
//            and allocates its new triangles and point with one 64-bit
//            atomicAdd. Every worker of a conflict backs off, so rounds
//            and conflicts pile up (docs/dmr.md); kept as the plain lock
//            baseline.
//   kAtomic  atomic marks, the baseline: the race marks every
//            triangle a worker reads with atomicMax of its per-round
//            priority, so each triangle ends with the highest; a check
//            kernel finds the owners (all marks theirs) and an apply kernel
//            retriangulates, taking fresh slots and the point with
//            atomicAdd. Three kernels a round.
//   kFree    the morph paper's barrier-based race / priority check / check,
//            three kernels a round (the kernel boundaries are the barriers):
//            workers mark their triangles with plain stores of a per-round
//            priority, a higher priority overwrites a lower one, and a
//            worker whose marks all survive owns its cavity; an exclusive
//            prefix sum of the owners' needs places their new triangles and
//            points, and an apply kernel retriangulates. No atomic
//            instruction in any of these kernels.
//
//   kBarrier kFree's three phases in one cooperative launch a round, with
//            grid barriers between them (the atomic-free paper's
//            persistent-thread form): a thread takes workers in passes of
//            the grid's size, and keeps its cavity and marked triangles in
//            its own memory from the race to the apply, which does not
//            walk the mesh again. Fresh slots from a block scan and the
//            blocks' totals. No atomic instruction in its code (the grid
//            barrier is cooperative groups').
//
//   kPass    kAtomic with its race kernel (atomic_race.cu) rewritten by
//            `decoupler --passes=atomics` at build time: annotated
//            `monotonic`, its atomicMax becomes a guarded relaxed store, so
//            the marking has no atomic left (the allocation keeps its
//            atomicAdd). A lost update costs progress, not exclusivity
//            (docs/dmr.md, "The pass").
//
// kAtomic and kFree differ only in the marking (atomicMax against a store
// and a priority phase) and the allocation (atomicAdd against a scan).
// Common to all three: the statistics cost no atomic (each worker writes its
// outcome, cub::DeviceReduce sums them); before a round of W workers the
// host grows the arrays to T + 2W slots and P + W points (geometrically;
// the morph paper's host-only subgraph addition); the slots handed out are exactly those used, so the T
// slots copied back are all live triangles. A round that fixed nothing (every
// worker backed off) is followed by a serial round: one thread, one step,
// without the bound on the triangles a worker may own (kMaxOwned in
// refine_gpu.cu; a step above it gives up for its round, counted in
// RefineStats::overflows). A refused step (kTooBig, kDegenerate) flags its
// triangle, which leaves the worklist until its slot is rewritten, as the CPU
// reference drops it from its queue.
#ifndef DD_DMR_REFINE_GPU_H
#define DD_DMR_REFINE_GPU_H

#include <cstdint>

#include "dmr/refine.h"

namespace dd::dmr {

enum class GpuAlgo { kLocks, kAtomic, kPass, kFree, kBarrier };

/// RefineOptions::max_rounds counts rounds here (serial ones included); 0
/// means 100000.
struct GpuOptions : RefineOptions {
  /// Workers per round at most (the rest wait for the next round).
  std::int64_t max_workers = std::int64_t{1} << 20;
  /// Threads per block: a multiple of 32 in [32, 1024].
  int block_size = 128;
  /// kBarrier: blocks at most; 0 for as many as are resident at once (the
  /// most a grid barrier allows).
  int max_blocks = 0;
};

/// Refines m on the current CUDA device and copies it back: T slots, all
/// live, and P points, all used (compact() is then a no-op; call it anyway).
/// Errors for CUDA failures (out of memory included), bad options, the
/// round limit ("N rounds (the limit) left B bad triangles") and an apply
/// phase that found another cavity than its race (an internal error); m is
/// then left as it was. stats.bad_left counts the refused triangles left.
graph::Expected<RefineStats> refine_gpu(Mesh &m, GpuAlgo algo, const GpuOptions &options);

} // namespace dd::dmr

#endif // DD_DMR_REFINE_GPU_H
