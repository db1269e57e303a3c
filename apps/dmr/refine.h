// Delaunay mesh refinement: the CPU reference and the two GPU variants
// (docs/dmr.md). All three run cavity.h's step; they differ in order and in
// how a step owns its triangles.
#ifndef DD_DMR_REFINE_H
#define DD_DMR_REFINE_H

#include <cstdint>

#include "dmr/mesh.h"
#include "graph/errors.h"

namespace dd::dmr {

/// What a refinement did.
struct RefineStats {
  /// GPU rounds (one worklist each); 0 on the CPU.
  std::int64_t rounds = 0;
  /// Rounds run by one worker because the parallel one fixed nothing.
  std::int64_t serial_rounds = 0;
  /// Points inserted (circumcenters and boundary midpoints).
  std::int64_t inserted = 0;
  std::int64_t split_edges = 0;
  /// Steps that backed off because another step owned a triangle.
  std::int64_t conflicts = 0;
  /// (GPU) Steps that gave up for a round because they needed more
  /// triangles than a worker may own at once (refine_gpu.cu's kMaxOwned);
  /// a serial round, which has no such bound, does them. 0 on the CPU.
  std::int64_t overflows = 0;
  /// Steps refused: a cavity above kMaxCavity, or rounding (kDegenerate).
  std::int64_t too_big = 0;
  std::int64_t degenerate = 0;
  /// Bad triangles left at the end (0 unless refused steps or the round
  /// limit left some).
  std::int64_t bad_left = 0;
  /// (GPU, barrier) The cooperative grid's threads, and the passes of all
  /// rounds (a round takes its workers in passes of the grid's size).
  std::int64_t grid_threads = 0;
  std::int64_t passes = 0;
  /// The refinement's time: host clock on the CPU; on the GPU, CUDA events
  /// around the rounds (the mesh already on the device, not copied back).
  double refine_ms = 0;
};

struct RefineOptions {
  /// Squared cosine of the smallest angle allowed (cos2_of_degrees(30)).
  double cos2_min = 0.75;
  /// Stop after this many rounds (GPU) or steps (CPU, 0: no limit).
  std::int64_t max_rounds = 0;
  /// Progress lines on standard error.
  bool verbose = false;
};

/// Sequential refinement: a FIFO of bad triangles, each step on the mesh as
/// the previous one left it. The mesh grows in place; call compact() after.
RefineStats refine_cpu(Mesh &m, const RefineOptions &options);

} // namespace dd::dmr

#endif // DD_DMR_REFINE_H
