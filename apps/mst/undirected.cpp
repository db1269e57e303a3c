// make_undirected(): the Csr read as an undirected graph (mst.h).
#include <algorithm>
#include <cstdint>
#include <utility>

#include "mst/mst.h"

namespace dd::mst {

Expected<UndirectedGraph> make_undirected(const graph::Csr &csr) {
  if (Status s = graph::validate(csr); !s.ok())
    return Status::error("invalid graph: " + s.message());
  if (csr.weight_type == graph::WeightType::kFloat32)
    return Status::error("the graph has float weights; a minimum spanning forest needs integer "
                         "weights (its total is compared exactly)");
  const std::uint64_t n = csr.num_vertices();
  const bool weighted = csr.weight_type == graph::WeightType::kInt32;

  // Bucket every non-loop edge by its lower endpoint (counting sort), as
  // (higher endpoint, weight): both directions of {u, v} and all parallel
  // copies land in the bucket of min(u, v).
  std::vector<std::uint64_t> bucket(n + 1, 0);
  for (std::uint64_t u = 0; u < n; ++u)
    for (graph::EdgeIndex e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
      const VertexId v = csr.col_indices[e];
      if (v != u)
        ++bucket[std::min<std::uint64_t>(u, v) + 1];
    }
  for (std::uint64_t u = 0; u < n; ++u)
    bucket[u + 1] += bucket[u];
  std::vector<std::pair<VertexId, std::uint32_t>> pairs(bucket[n]);
  {
    std::vector<std::uint64_t> fill(bucket.begin(), bucket.end() - 1);
    for (std::uint64_t u = 0; u < n; ++u)
      for (graph::EdgeIndex e = csr.row_offsets[u]; e < csr.row_offsets[u + 1]; ++e) {
        const VertexId v = csr.col_indices[e];
        if (v == u)
          continue;
        const auto w = static_cast<std::uint32_t>(weighted ? csr.int_weights[e] : 1);
        if (u < v)
          pairs[fill[u]++] = {v, w};
        else
          pairs[fill[v]++] = {static_cast<VertexId>(u), w};
      }
  }

  // One edge per pair, the lightest copy: sort each bucket by (hi, weight)
  // and keep the first of each hi.
  UndirectedGraph g;
  g.num_vertices = static_cast<std::uint32_t>(n);
  std::vector<std::uint32_t> degree(n, 0);
  for (std::uint64_t lo = 0; lo < n; ++lo) {
    const auto first = pairs.begin() + static_cast<std::ptrdiff_t>(bucket[lo]);
    const auto last = pairs.begin() + static_cast<std::ptrdiff_t>(bucket[lo + 1]);
    std::sort(first, last);
    for (auto it = first; it != last; ++it) {
      if (it != first && it->first == (it - 1)->first)
        continue;
      // Adjacency indices are 32-bit on the device: 2 * edges must fit.
      if (g.edge_lo.size() >= 0x7fffffffu)
        return Status::error("the graph has 2^31 or more undirected edges; the GPU Boruvka "
                             "uses 32-bit adjacency indices");
      g.edge_lo.push_back(static_cast<VertexId>(lo));
      g.edge_hi.push_back(it->first);
      g.edge_weight.push_back(it->second);
      ++degree[lo];
      ++degree[it->first];
    }
  }
  pairs = {};

  // The symmetric adjacency: each undirected edge in the rows of both ends.
  g.row_offsets.assign(n + 1, 0);
  for (std::uint64_t v = 0; v < n; ++v)
    g.row_offsets[v + 1] = g.row_offsets[v] + degree[v];
  g.adj_vertex.resize(2 * g.edge_lo.size());
  g.adj_edge.resize(2 * g.edge_lo.size());
  std::vector<std::uint32_t> fill(g.row_offsets.begin(), g.row_offsets.end() - 1);
  for (std::uint32_t e = 0; e < g.num_edges(); ++e) {
    const VertexId lo = g.edge_lo[e], hi = g.edge_hi[e];
    g.adj_vertex[fill[lo]] = hi;
    g.adj_edge[fill[lo]++] = e;
    g.adj_vertex[fill[hi]] = lo;
    g.adj_edge[fill[hi]++] = e;
  }
  return g;
}

} // namespace dd::mst
