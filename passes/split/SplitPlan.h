//===- split/SplitPlan.h - Slicing and costing one decoupled loop -*- C++ -*-//
//
// The first step of the affine-stream split (issue 6, docs/split-pass.md):
// for one loop of a kernel, decides what a producer warp would run and
// stream and whether that is legal and worth it, by the rules of
// docs/split-study.md section 6 with the constants of SplitModel.h:
//
//   legality   loop control scalar/affine with a block-uniform trip count and
//              no value loaded from memory in it; no exit that depends on a
//              per-thread or loaded value; no streamed array written in the
//              loop; block size a multiple of 32 (when a launch fixes it);
//              the ring fits 227 KiB / 7 per block
//   streams    rule 2: affine loads with a blockIdx term, not invariant in
//              any loop around them; the rest stay with the consumers
//   stages     rule 3: U iterations per stage (one copy when the stream
//              advances by its tile width per iteration), Depth ~16 KiB
//   declines   rule 4 (small stages, already bandwidth-bound, short blocks,
//              predicted gain) and rule 5 (restrict/hoist is cheaper)
//
// This file only plans; SplitRewrite.h generates the code for accepted plans.
//
//===----------------------------------------------------------------------===//
#ifndef DECOUPLER_SPLIT_SPLITPLAN_H
#define DECOUPLER_SPLIT_SPLITPLAN_H

#include "affine/AffineAnalysis.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace decoupler::split {

/// A load the producer warp would copy into the ring.
struct Stream {
  const clang::Stmt *Load = nullptr; // the load expression
  std::string Text; // source text of the load, e.g. "A[i * num + tid]"
  unsigned ElemBytes = 0;
  /// Byte distance between neighbouring threads' addresses (x).
  int64_t ThreadStrideBytes = 0;
  /// U consecutive iterations are adjacent: one copy of U tiles per stage.
  bool Merged = false;
  /// Another streamed load of the same array at a small constant offset
  /// shares its tile (a halo: unaligned edges).
  bool Halo = false;
  /// Bytes per thread and iteration the tile carries in the ring.
  unsigned RingBytes = 0;
};

/// A load in the loop left to the consumer warps, and why.
struct ConsumerLoad {
  const clang::Stmt *Load = nullptr; // the load expression
  std::string Text;
  std::string Why;
};

enum class Outcome { Accepted, Declined, Refused };

struct LoopPlan {
  const clang::Stmt *Loop = nullptr;
  const clang::FunctionDecl *Kernel = nullptr;
  Outcome Result = Outcome::Refused;
  /// Refused: why, and where (a caret at the offending construct; the loop
  /// itself when there is none). Declined: every rule-4 reason that held.
  std::string Reason;
  clang::SourceLocation ReasonLoc;
  std::vector<std::string> Declines;

  /// Rule 2 left no load to stream (declined; under --split=auto such a
  /// loop is no candidate and gets no remark).
  bool NoStream = false;
  std::vector<Stream> Streams;
  std::vector<ConsumerLoad> Consumers;

  /// Threads per block: from the launches in the file when they agree on a
  /// constant, else CostModel::AssumedBlockThreads.
  unsigned BlockThreads = 0;
  bool BlockKnown = false;

  // Rule 3.
  unsigned U = 0;           // iterations per stage
  unsigned Depth = 0;       // stages in the ring
  bool DepthGiven = false;  // depth(N) of the annotation
  uint64_t StageBytes = 0;  // bytes per stage (all streams)
  uint64_t CopyBytes = 0;   // bytes of the smallest single copy
  uint64_t SharedBytes = 0; // ring + the kernel's own static shared memory

  // Rule 4.
  unsigned MLP = 1;
  uint64_t InFlightBytes = 0; // per SM, in the original
  double RingRate = 0;        // bytes/s the ring must carry (small stages)
  double Gain = 0;            // predicted speedup
  /// Iterations per block when known at compile time.
  std::optional<uint64_t> TripCount;
  /// Iterations a block needs for MinStagesPerDepth * Depth stages.
  uint64_t MinTripCount = 0;

  /// Why stores through other pointer parameters cannot write the streamed
  /// arrays although nothing in the kernel says so: at every launch in the
  /// file, the buffers are distinct allocations (support/Allocations.h).
  std::vector<std::string> DistinctBuffers;
  /// Rule 5: MLP is 1 only because a store may alias a streamed load; the
  /// restrict/hoist rewrite is cheaper than the split.
  bool PreferHoist = false;
  /// Per-thread conditions around the loop or a streamed load that the
  /// consumers would predicate (affine guards), for the report.
  unsigned Guards = 0;
};

struct PlanOptions {
  /// The loop is annotated: the programmer promises that no pointer written
  /// in the loop aliases a streamed array unless it is the same object.
  bool Annotated = true;
  /// depth(N) of the annotation, and where the annotation is (the caret of
  /// a refusal caused by that depth).
  std::optional<unsigned> Depth;
  clang::SourceLocation DepthLoc;
};

/// Plans \p Loop (a for statement in kernel \p K's body).
LoopPlan planLoop(const clang::Stmt *Loop, const KernelAnalysis &K,
                  clang::ASTContext &Ctx, const PlanOptions &Options);

/// One line describing an accepted plan: streams, stage shape, predicted
/// gain, e.g. "streams A[i * n + j] (4 KiB stages x depth 4, U=4)".
std::string describe(const LoopPlan &P);

} // namespace decoupler::split

#endif // DECOUPLER_SPLIT_SPLITPLAN_H
