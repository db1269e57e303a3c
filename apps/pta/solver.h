// Andersen's analysis on the CPU: the reference every other solver's
// points-to sets must equal (docs/pta.md, "The solver").
//
//   Expected<ConstraintSet> set = read_constraints("prog.ll");
//   Solution s = solve(*set);
//   s.pts[n]   // node n's targets: sorted node ids
#ifndef DD_PTA_SOLVER_H
#define DD_PTA_SOLVER_H

#include <cstdint>
#include <string>
#include <vector>

#include "pta/constraints.h"

namespace dd::pta {

struct Solution {
  std::vector<std::vector<std::uint32_t>> pts; ///< per node, sorted, no repeats
  std::uint64_t edges = 0;        ///< copy edges at the fixed point (loads and stores added)
  std::uint64_t visits = 0;       ///< nodes taken from the worklist
  std::uint64_t propagations = 0; ///< set unions along edges
  std::uint64_t merged = 0;       ///< nodes merged into others on cycles

  /// Points-to facts: the sum of the set sizes of the nodes that are not
  /// temporaries.
  std::uint64_t facts(const ConstraintSet &set) const;
};

/// The least solution of `set` (which must validate()): a FIFO worklist of
/// nodes with difference propagation (a node passes on only what it gained
/// since its last visit) over sparse bitmaps; load and store constraints
/// add copy edges as their pointers' sets grow; copy cycles are merged by
/// lazy cycle detection (docs/pta.md, "The solver").
Solution solve(const ConstraintSet &set);

/// The --out text (docs/pta.md, "Output"): a header line, then one line
/// "NAME -> T1 T2 ..." per node that is not a temporary and has targets,
/// sorted by name, targets sorted by name (bytewise).
std::string format_solution(const ConstraintSet &set, const Solution &solution);

} // namespace dd::pta

#endif // DD_PTA_SOLVER_H
