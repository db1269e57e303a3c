// Andersen's analysis on the GPU (docs/pta.md, "On the GPU"): synchronous
// rounds over dense bitsets, one bit per abstract location whose address is
// taken, in two variants that differ only in how facts and new edges land:
//   kAtomic  push: a warp per copy edge whose source gained facts ORs them
//            into the destination with atomicOr, and the edges that loads
//            and stores add take their slots from an atomicAdd on a
//            counter (LonestarGPU's scheme as the papers describe it);
//   kFree    no read-modify-write atomic in the solver's kernels: a warp per
//            node pulls into it (one writer per word) along its copies and
//            through its loads and the stores that write it, reading the
//            edges they add from the pointers' sets instead of making them
//            (no edge is stored, so no slot is taken); the stores' sets are
//            transposed with warp ballots, one writer per word, first.
// Both compute the least solution, the same sets as the CPU solver
// (solver.h); dd-pta --verify compares them.
//
// This header needs no CUDA: the command links it where CUDA is built.
#ifndef DD_PTA_GPU_SOLVER_H
#define DD_PTA_GPU_SOLVER_H

#include <cstdint>
#include <string>

#include "pta/constraints.h"
#include "pta/solver.h"

namespace dd::pta::gpu {

enum class Variant { kAtomic, kFree };

struct Stats {
  std::uint64_t rounds = 0;     ///< synchronous rounds to the fixed point
  std::uint64_t locations = 0;  ///< bits of a set: locations whose address is taken
  std::uint64_t edges = 0;      ///< copy edges at the end, those of loads and stores included
  double solve_ms = 0;          ///< CUDA events around the rounds (the sets on the device)
  double total_ms = 0;          ///< also copying the constraints in and the sets out
};

/// Whether a CUDA device can be used; otherwise why not.
bool available(std::string *why);

/// The least solution of `set` (which must validate()), computed on the
/// GPU. Errors: CUDA's (out of memory, no device), as a Status.
Expected<Solution> solve(const ConstraintSet &set, Variant variant, Stats *stats = nullptr);

} // namespace dd::pta::gpu

#endif // DD_PTA_GPU_SOLVER_H
