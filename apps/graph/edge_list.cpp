#include "graph/edge_list.h"

namespace dd::graph {

Expected<Csr> build_csr(const EdgeList& edges, std::uint64_t num_vertices, bool symmetrize) {
  const std::uint64_t m = edges.size();
  if (edges.destinations.size() != m)
    return Status::error(str_cat("edge list has ", m, " sources but ",
                                 edges.destinations.size(), " destinations"));
  const std::size_t int_expected = edges.weight_type == WeightType::kInt32 ? m : 0;
  const std::size_t float_expected = edges.weight_type == WeightType::kFloat32 ? m : 0;
  if (edges.int_weights.size() != int_expected || edges.float_weights.size() != float_expected)
    return Status::error(str_cat("edge list of ", m, " edges has ", edges.int_weights.size(),
                                 " int and ", edges.float_weights.size(), " float weights"));
  if (num_vertices > kMaxVertices)
    return Status::error(str_cat(num_vertices, " vertices, more than the ", kMaxVertices,
                                 " a 32-bit id allows"));

  Csr g;
  g.weight_type = edges.weight_type;
  g.row_offsets.assign(num_vertices + 1, 0);

  // Count out-degrees into row_offsets[v + 1], then prefix-sum.
  std::uint64_t total = 0;
  for (std::uint64_t e = 0; e < m; ++e) {
    const VertexId u = edges.sources[e];
    const VertexId v = edges.destinations[e];
    if (u >= num_vertices || v >= num_vertices)
      return Status::error(str_cat("edge ", e, " (", u, ", ", v, ") out of range (",
                                   num_vertices, " vertices)"));
    ++g.row_offsets[u + 1];
    ++total;
    if (symmetrize && u != v) {
      ++g.row_offsets[v + 1];
      ++total;
    }
  }
  for (std::uint64_t v = 0; v < num_vertices; ++v)
    g.row_offsets[v + 1] += g.row_offsets[v];

  g.col_indices.resize(total);
  if (g.weight_type == WeightType::kInt32)
    g.int_weights.resize(total);
  else if (g.weight_type == WeightType::kFloat32)
    g.float_weights.resize(total);

  // Scatter in input order: a stable counting sort by source.
  std::vector<EdgeIndex> cursor(g.row_offsets.begin(), g.row_offsets.end() - 1);
  auto place = [&](VertexId from, VertexId to, std::uint64_t e) {
    const EdgeIndex slot = cursor[from]++;
    g.col_indices[slot] = to;
    if (g.weight_type == WeightType::kInt32)
      g.int_weights[slot] = edges.int_weights[e];
    else if (g.weight_type == WeightType::kFloat32)
      g.float_weights[slot] = edges.float_weights[e];
  };
  for (std::uint64_t e = 0; e < m; ++e) {
    const VertexId u = edges.sources[e];
    const VertexId v = edges.destinations[e];
    place(u, v, e);
    if (symmetrize && u != v)
      place(v, u, e);
  }
  return g;
}

EdgeList to_edge_list(const Csr& g) {
  EdgeList edges;
  const std::uint64_t n = g.num_vertices();
  edges.sources.resize(g.num_edges());
  for (std::uint64_t v = 0; v < n; ++v)
    for (EdgeIndex e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e)
      edges.sources[e] = static_cast<VertexId>(v);
  edges.destinations = g.col_indices;
  edges.weight_type = g.weight_type;
  edges.int_weights = g.int_weights;
  edges.float_weights = g.float_weights;
  return edges;
}

Expected<Csr> symmetrize(const Csr& g) { return build_csr(to_edge_list(g), g.num_vertices(), true); }

} // namespace dd::graph
