// Summary statistics of a graph, as `dd-graph info` prints them: what a
// benchmark table needs to characterize an input (size, skew, weights).
#ifndef DD_GRAPH_STATS_H
#define DD_GRAPH_STATS_H

#include <cstdint>

#include "graph/csr.h"

namespace dd::graph {

struct GraphStats {
  std::uint64_t num_vertices = 0;
  std::uint64_t num_edges = 0;
  std::uint64_t min_degree = 0;      ///< out-degree; 0 for an empty graph
  std::uint64_t max_degree = 0;
  double mean_degree = 0;
  double degree_stddev = 0;          ///< population standard deviation
  std::uint64_t zero_degree = 0;     ///< vertices without out-edges
  std::uint64_t self_loops = 0;
  std::uint64_t duplicate_edges = 0; ///< edges repeating an earlier (u, v)
  double min_weight = 0;             ///< over all edges; 0 when unweighted or empty
  double max_weight = 0;
};

/// One pass over the graph (duplicates are found by sorting a copy of each
/// row, so the cost is O(E log d_max)).
GraphStats compute_stats(const Csr& graph);

} // namespace dd::graph

#endif // DD_GRAPH_STATS_H
