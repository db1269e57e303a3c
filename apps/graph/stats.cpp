#include "graph/stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace dd::graph {

GraphStats compute_stats(const Csr& g) {
  GraphStats s;
  s.num_vertices = g.num_vertices();
  s.num_edges = g.num_edges();
  if (s.num_vertices == 0)
    return s;
  s.min_degree = ~std::uint64_t{0};
  double sum_sq = 0;
  std::vector<VertexId> row;
  for (std::uint64_t u = 0; u < s.num_vertices; ++u) {
    const std::uint64_t d = g.row_offsets[u + 1] - g.row_offsets[u];
    s.min_degree = std::min(s.min_degree, d);
    s.max_degree = std::max(s.max_degree, d);
    sum_sq += static_cast<double>(d) * static_cast<double>(d);
    if (d == 0)
      ++s.zero_degree;
    row.assign(g.col_indices.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u]),
               g.col_indices.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[u + 1]));
    for (VertexId v : row)
      if (v == u)
        ++s.self_loops;
    std::sort(row.begin(), row.end());
    for (std::size_t i = 1; i < row.size(); ++i)
      if (row[i] == row[i - 1])
        ++s.duplicate_edges;
  }
  const double n = static_cast<double>(s.num_vertices);
  s.mean_degree = static_cast<double>(s.num_edges) / n;
  s.degree_stddev = std::sqrt(std::max(0.0, sum_sq / n - s.mean_degree * s.mean_degree));

  if (g.weight_type == WeightType::kInt32 && !g.int_weights.empty()) {
    const auto [lo, hi] = std::minmax_element(g.int_weights.begin(), g.int_weights.end());
    s.min_weight = *lo;
    s.max_weight = *hi;
  } else if (g.weight_type == WeightType::kFloat32 && !g.float_weights.empty()) {
    const auto [lo, hi] = std::minmax_element(g.float_weights.begin(), g.float_weights.end());
    s.min_weight = *lo;
    s.max_weight = *hi;
  }
  return s;
}

} // namespace dd::graph
