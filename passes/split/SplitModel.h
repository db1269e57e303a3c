//===- split/SplitModel.h - The split pass's cost model constants -*- C++ -*-//
//
// Every number the affine-stream split pass decides with, in one place. They
// come from the hand-split study on an NVIDIA H200 (docs/split-study.md,
// sections 4-6); docs/split-pass.md says how each rule uses them. Change them
// here, and only here, when the study is redone on another GPU.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SPLIT_SPLITMODEL_H
#define DECOUPLER_SPLIT_SPLITMODEL_H

#include <algorithm>
#include <cstdint>

namespace decoupler::split {

struct CostModel {
  // --- The machine (split-study.md section 3 and 6) ----------------------
  /// Device-to-device copy ceiling, read + write (4186 GB/s measured).
  static constexpr double CopyCeilingBytesPerSec = 4.19e12;
  /// Loaded DRAM latency: fig33's original keeps 8 KiB in flight per SM and
  /// reads at 1.47 TB/s.
  static constexpr double LoadedLatencySec = 0.7e-6;
  static constexpr unsigned SMs = 132;
  static constexpr double ClockHz = 1.98e9;
  /// Shared memory one SM gives to blocks (228 KB, 1 KiB reserved per block).
  static constexpr unsigned SharedBytesPerSM = 227 * 1024;

  // --- The ring (<dd/affine_queue.cuh>, split-study.md section 5) --------
  /// A split block (the original's 256 threads + a producer warp) keeps this
  /// many blocks per SM; the pass keeps the split's shared memory within
  /// SharedBytesPerSM / SplitBlocksPerSM so that it costs no more than that.
  static constexpr unsigned SplitBlocksPerSM = 7;
  /// Cycles one stage costs a block at SplitBlocksPerSM blocks per SM (the
  /// protocol's own work: barrier waits, copy issue, arrivals).
  static constexpr double StageCostCycles = 810;
  /// The split at best reaches this fraction of the copy ceiling.
  static constexpr double SplitEfficiency = 0.9;
  /// Ring barriers: 16 bytes per slot; tile metadata: 12 bytes; copies are
  /// 16-byte aligned (the TileSlot formula of split-study.md section 1).
  static constexpr unsigned BarrierBytesPerSlot = 16;
  static constexpr unsigned TileMetadataBytes = 12;
  static constexpr unsigned CopyAlignBytes = 16;

  // --- Rule 3: the shape of the stages -----------------------------------
  /// A stage (one copy) of at least this many bytes streams at ~98 % of
  /// plain loads; 1 KiB stages are capped at 2.3 TB/s.
  static constexpr unsigned MinStageBytes = 4096;
  /// Depth * stage: more than 8-16 KiB of ring per block never helped.
  static constexpr unsigned TargetRingBytes = 16384;
  static constexpr unsigned MinDepth = 2;
  static constexpr unsigned MaxDepth = 16;

  // --- Rule 4: declines --------------------------------------------------
  /// Small stages: decline when the ring would have to carry more than this
  /// (bytes/s) for the kernel to reach SplitEfficiency of the ceiling.
  static constexpr double MaxSmallStageRingRate = 2.0e12;
  /// Already bandwidth-bound: bytes in flight per SM in the original at or
  /// above this (~ ceiling per SM x 0.75 us).
  static constexpr unsigned BandwidthBoundInFlightBytes = 24 * 1024;
  /// Warps per SM of the original (full occupancy: registers are not known
  /// at the source level).
  static constexpr unsigned OriginalWarpsPerSM = 64;
  /// Loads in flight per warp when nvcc can unroll the loop (a constant step
  /// and no store that may alias a load): it kept 8-16 loads in flight in
  /// spmv and kmeans; the study counts 4.
  static constexpr unsigned UnrolledMLP = 4;
  static constexpr unsigned SectorBytes = 32;
  /// Sectors a warp request of a gather (or of an unknown stride) touches.
  static constexpr unsigned GatherSectors = 32;
  /// Loads within this many elements of another load of the same array (in
  /// this or one of the last MaxReuseIterations iterations) bring no new
  /// bytes (the stencil's west/east neighbours and rows y-1, y).
  static constexpr int64_t MaxNeighbourElements = 32;
  static constexpr int64_t MaxReuseIterations = 3;
  /// Short blocks: fewer than this many stages per block per Depth. The
  /// study's rule 4 says 4, but that declines its own accepted case (matvec
  /// 8192 x 8192 at Depth 4, U=4 makes 8 stages per block, measured 1.64x);
  /// 2 separates the two measured points (8 stages: 1.64x; 1 stage: 0.76x).
  static constexpr unsigned MinStagesPerDepth = 2;
  /// Predicted gain below which the split is not worth it.
  static constexpr double MinGain = 1.2;

  // --- Defaults where the source does not say ----------------------------
  /// Threads per block assumed by the model when no launch in the file fixes
  /// it (the study's 256).
  static constexpr unsigned AssumedBlockThreads = 256;

  /// R(S): the rate a ring of stages of \p StageBytes streams at, bytes/s.
  static double ringRate(double StageBytes) {
    return std::min(CopyCeilingBytesPerSec, SMs * SplitBlocksPerSM *
                                                StageBytes * ClockHz /
                                                StageCostCycles);
  }
  /// Shared memory per split block that keeps SplitBlocksPerSM resident.
  static constexpr unsigned maxSharedBytesPerBlock() {
    return SharedBytesPerSM / SplitBlocksPerSM;
  }
  /// sizeof(TileSlot<T, Elems>) for sizeof(T) == \p ElemBytes.
  static uint64_t tileSlotBytes(unsigned ElemBytes, uint64_t Elems) {
    uint64_t Pad =
        ElemBytes >= CopyAlignBytes ? 0 : CopyAlignBytes / ElemBytes - 1;
    uint64_t Raw = ElemBytes * (Elems + Pad) + TileMetadataBytes;
    return (Raw + CopyAlignBytes - 1) / CopyAlignBytes * CopyAlignBytes;
  }
};

} // namespace decoupler::split

#endif // DECOUPLER_SPLIT_SPLITMODEL_H
