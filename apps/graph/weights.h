// Seeded edge weights, for inputs that carry none (as the GAP benchmark does
// for SSSP: integers uniform in [1, 255]).
#ifndef DD_GRAPH_WEIGHTS_H
#define DD_GRAPH_WEIGHTS_H

#include <cstdint>

#include "graph/csr.h"
#include "graph/errors.h"

namespace dd::graph {

struct WeightOptions {
  std::uint64_t seed = 1;
  std::int32_t min_weight = 1;    ///< inclusive, >= 0
  std::int32_t max_weight = 255;  ///< inclusive, >= min_weight
  /// Give (u, v) and (v, u) the same weight, as an undirected graph needs: the
  /// weight is then a function of the unordered pair {u, v} (so duplicates of
  /// an edge share it too). Otherwise it is a function of the edge's index.
  bool symmetric = false;
};

/// Replaces the weights of `graph` by int32 weights uniform in
/// [min_weight, max_weight]. Each weight is hash64(seed, key) reduced to the
/// range, so the result depends only on the seed and the graph (not on the
/// order of computation). Errors on a bad range; leaves `graph` unchanged then.
Status assign_uniform_weights(Csr& graph, const WeightOptions& options);

/// Replaces the weights of `graph` by int32 ones, all 1 (unit weights).
void assign_unit_weights(Csr& graph);

} // namespace dd::graph

#endif // DD_GRAPH_WEIGHTS_H
