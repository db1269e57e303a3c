// The race of the atomic-marks variant (refine_gpu.h, GpuAlgo::kAtomic):
// every worker builds its step's cavity, listing the triangles it reads,
// then marks each with atomicMax of its per-round mark, so that after the
// kernel every triangle carries the highest mark of the workers that want
// it, and the check kernel finds the owners (all marks their own).
//
// Built twice (apps/dmr/CMakeLists.txt): as written, with
// DD_DMR_RACE_VARIANT=written (--algo=atomic), and rewritten at build time by
// `decoupler --passes=atomics`, with DD_DMR_RACE_VARIANT=pass (--algo=pass).
// The kernel is annotated `monotonic` (a triangle's mark only grows while
// the kernel runs), so the pass turns the atomicMax into
// dd::atomic_max_filtered: a relaxed load of the mark, and the atomicMax
// only where the mark is lower. Exact: the marks end as atomicMax leaves
// them (docs/dmr.md, "The pass"). Annotated monotonic(store), the pass would
// write the papers' guarded plain store instead, which can leave a lower
// mark than the highest offered; measured, that cost 20 % more rounds.
#include <cstdint>

#include <cuda_runtime.h>

#include "dd/annotate.h"
#include "dmr/cavity.h"
#include "dmr/race.h"

#ifndef DD_DMR_RACE_VARIANT
#error "compile atomic_race.cu with -DDD_DMR_RACE_VARIANT=written or -DDD_DMR_RACE_VARIANT=pass"
#endif

namespace dd::dmr::race::DD_DMR_RACE_VARIANT {

DD_PRAGMA(monotonic)
__global__ void atomic_race(MeshView m, const int *work, int workers, double cos2_min,
                            std::uint32_t round, unsigned long long *mark, int *owned,
                            int *owned_count, std::uint8_t *state) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= workers)
    return;
  ListVisitor visit{owned + w, workers};
  Cavity cavity;
  const CavityStatus s = build_cavity(m, work[w], cos2_min, visit, cavity);
  owned_count[w] = visit.n;
  const State st = state_of(s, cavity);
  state[w] = st;
  // A worker that drops out (overflow) or has nothing to do does not
  // compete, so it marks nothing.
  if (st == kOverflow || st == kGone)
    return;
  const unsigned long long mine = mark_of(w, round);
  for (int i = 0; i < visit.n; ++i)
    atomicMax(&mark[owned[i * workers + w]], mine);
}

cudaError_t launch_atomic_race(unsigned blocks, int block, MeshView m, const int *work,
                               int workers, double cos2_min, std::uint32_t round,
                               unsigned long long *mark, int *owned, int *owned_count,
                               std::uint8_t *state) {
  atomic_race<<<blocks, block>>>(m, work, workers, cos2_min, round, mark, owned, owned_count,
                                 state);
  return cudaGetLastError();
}

} // namespace dd::dmr::race::DD_DMR_RACE_VARIANT
