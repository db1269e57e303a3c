// What the marking variants' race kernels share (refine_gpu.cu and
// atomic_race.cu): the per-round marks, the race's outcome per worker, and
// the visitor that lists the triangles a step reads.
#ifndef DD_DMR_RACE_H
#define DD_DMR_RACE_H

#include <cstdint>

#include <cuda_runtime.h>

#include "dmr/cavity.h"

namespace dd::dmr::race {

/// Triangles a worker may own in a parallel round (the walk to the
/// circumcenter, the cavity and the triangles next to it; typically 15-30).
/// A step that needs more gives up for the round ("overflow") and is done by
/// a serial round, which has no bound. The same bound for every variant, so
/// that they give up on the same steps.
inline constexpr int kMaxOwned = 160;

/// MurmurHash3's finalizer: a bijection of 32-bit words.
__host__ __device__ inline std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/// Worker w's mark in round `round` (from 1): (round << 32) | priority. Every
/// mark of an earlier round is below every mark of this one, and priority is
/// a bijection of w that changes from round to round (so the same workers do
/// not always lose), so two workers of a round never share a mark.
__device__ inline unsigned long long mark_of(int w, std::uint32_t round) {
  const std::uint32_t key = fmix32(round * 0x9e3779b9u);
  return (static_cast<unsigned long long>(round) << 32) |
         fmix32(static_cast<std::uint32_t>(w) ^ key);
}

/// What the race left for the later phases, per worker.
enum State : std::uint8_t {
  kCircumcenter, ///< a cavity for a circumcenter (2 fresh slots)
  kSplit,        ///< a cavity for a split boundary edge (1 fresh slot)
  kTooBig,
  kDegenerate,
  kOverflow,     ///< drops out of this round
  kGone,         ///< nothing to do (cannot happen: the race reads the round's mesh)
};

__device__ inline State state_of(CavityStatus s, const Cavity &c) {
  switch (s) {
  case CavityStatus::kOk:
    return c.split_tri >= 0 ? kSplit : kCircumcenter;
  case CavityStatus::kTooBig:
    return kTooBig;
  case CavityStatus::kDegenerate:
    return kDegenerate;
  case CavityStatus::kGone:
    return kGone;
  case CavityStatus::kConflict: // only the visitor's overflow refuses
  default:
    return kOverflow;
  }
}

/// Lists each triangle a step reads in the worker's owned list, once
/// (interleaved: entry i of worker w at owned[i * stride + w]); refuses the
/// step past kMaxOwned. Marks nothing: the kernel marks the list afterwards,
/// in its own body, where the atomics pass sees the atomicMax.
struct ListVisitor {
  int *owned;
  int stride;
  int n = 0;
  bool overflow = false;

  __device__ bool operator()(std::int32_t t) {
    for (int i = 0; i < n; ++i)
      if (owned[i * stride] == t)
        return true;
    if (n == kMaxOwned) {
      overflow = true;
      return false;
    }
    owned[n * stride] = t;
    ++n;
    return true;
  }
};

/// The atomic-marks race of one round (atomic_race.cu): each worker lists
/// the triangles its step reads and marks them with atomicMax of its mark.
/// `variant` is the build: as written (`written`) or through `decoupler
/// --passes=atomics`, where `#pragma dd monotonic` turns the atomicMax into
/// a guarded relaxed store (`pass`). Returns the launch's error.
namespace written {
cudaError_t launch_atomic_race(unsigned blocks, int block, MeshView m, const int *work,
                               int workers, double cos2_min, std::uint32_t round,
                               unsigned long long *mark, int *owned, int *owned_count,
                               std::uint8_t *state);
} // namespace written
namespace pass {
cudaError_t launch_atomic_race(unsigned blocks, int block, MeshView m, const int *work,
                               int workers, double cos2_min, std::uint32_t round,
                               unsigned long long *mark, int *owned, int *owned_count,
                               std::uint8_t *state);
} // namespace pass

} // namespace dd::dmr::race

#endif // DD_DMR_RACE_H
