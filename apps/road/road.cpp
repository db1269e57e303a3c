// Road-like networks: Delaunay triangulation, Euclidean MST, random extra
// Delaunay edges (road.h).
#include "road/road.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dmr/mesh.h"
#include "dmr/triangulate.h"
#include "graph/disjoint_sets.h"
#include "graph/random.h"

namespace dd::road {
namespace {

using graph::Csr;
using graph::EdgeIndex;
using graph::Expected;
using graph::Status;
using graph::str_cat;
using graph::VertexId;

struct Road {
  VertexId a, b; // a < b
  std::int32_t length;
};

// The lattice the triangulator's points lie on (dmr/triangulate.h): a
// coordinate times 2^20 is an exact integer.
constexpr double kLattice = 1 << 20;

} // namespace

Expected<Csr> generate_road(const RoadParams &p) {
  const std::uint64_t most = static_cast<std::uint64_t>(dmr::kMaxRandomPoints) + 4;
  if (p.num_vertices < 4 || p.num_vertices > most)
    return Status::error(str_cat("road network: ", p.num_vertices, " vertices is not in [4, ", most, "]"));
  if (!(p.mean_degree >= 2 && p.mean_degree <= 5))
    return Status::error(str_cat("road network: mean degree ", p.mean_degree, " is not in [2, 5]"));
  Expected<dmr::Mesh> mesh = dmr::random_square_mesh(static_cast<std::int64_t>(p.num_vertices) - 4, p.seed);
  if (!mesh.ok())
    return mesh.status();
  const dmr::Mesh &m = *mesh;
  const std::uint64_t n = p.num_vertices;

  // Every Delaunay edge once: from the triangle of lower index, or the only one.
  std::vector<Road> roads;
  roads.reserve(3 * n);
  const std::int64_t slots = m.num_slots();
  for (std::int64_t t = 0; t < slots; ++t) {
    for (int k = 0; k < 3; ++k) {
      const std::int32_t other = m.n[3 * t + k];
      if (other >= 0 && other < t)
        continue;
      const auto u = static_cast<VertexId>(m.v[3 * t + (k + 1) % 3]);
      const auto w = static_cast<VertexId>(m.v[3 * t + (k + 2) % 3]);
      const double dx = (m.x[u] - m.x[w]) * kLattice, dy = (m.y[u] - m.y[w]) * kLattice;
      const auto length = static_cast<std::int32_t>(std::max(1.0, std::round(std::sqrt(dx * dx + dy * dy))));
      roads.push_back(Road{std::min(u, w), std::max(u, w), length});
    }
  }
  // Kruskal: the Euclidean minimum spanning tree is a subgraph of the
  // Delaunay triangulation. Ties go by ids, so the result is one tree.
  std::sort(roads.begin(), roads.end(), [](const Road &x, const Road &y) {
    return x.length != y.length ? x.length < y.length : x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  graph::DisjointSets components(n);
  std::vector<Road> kept, rest;
  kept.reserve(n - 1);
  rest.reserve(roads.size());
  // Extra roads are no longer than the tree's longest: that leaves out the
  // square's sides and the long slivers along them, which the Delaunay
  // triangulation has and no street network does (the tree's edges are
  // short: each joins a point to a near neighbour).
  std::vector<bool> in_tree(roads.size());
  std::int32_t longest = 0;
  for (std::size_t i = 0; i < roads.size(); ++i)
    if (components.unite(roads[i].a, roads[i].b)) {
      in_tree[i] = true;
      kept.push_back(roads[i]);
      longest = roads[i].length; // sorted: the last is the longest
    }
  for (std::size_t i = 0; i < roads.size() && roads[i].length <= longest; ++i)
    if (!in_tree[i])
      rest.push_back(roads[i]);
  roads = {};
  // Extra roads, a uniform random choice among the rest (a partial
  // Fisher-Yates shuffle), up to the mean degree asked.
  const std::uint64_t extra = std::min<std::uint64_t>(
      static_cast<std::uint64_t>(std::llround((p.mean_degree - 2) * static_cast<double>(n) / 2)), rest.size());
  graph::Xoshiro256 rng(graph::hash64(p.seed, 0x726f6164)); // "road"
  for (std::uint64_t i = 0; i < extra; ++i) {
    std::swap(rest[i], rest[i + rng.below(rest.size() - i)]);
    kept.push_back(rest[i]);
  }
  rest = {};

  Csr g;
  g.row_offsets.assign(n + 1, 0);
  for (const Road &r : kept) {
    ++g.row_offsets[r.a + 1];
    ++g.row_offsets[r.b + 1];
  }
  for (std::uint64_t v = 0; v < n; ++v)
    g.row_offsets[v + 1] += g.row_offsets[v];
  const EdgeIndex arcs = g.row_offsets[n];
  g.col_indices.resize(arcs);
  g.int_weights.resize(arcs);
  g.weight_type = graph::WeightType::kInt32;
  std::vector<EdgeIndex> next(g.row_offsets.begin(), g.row_offsets.end() - 1);
  for (const Road &r : kept) {
    g.col_indices[next[r.a]] = r.b;
    g.int_weights[next[r.a]++] = r.length;
    g.col_indices[next[r.b]] = r.a;
    g.int_weights[next[r.b]++] = r.length;
  }
  // Rows by neighbour id: the order no longer depends on the sort above.
  std::vector<std::pair<VertexId, std::int32_t>> row;
  for (std::uint64_t v = 0; v < n; ++v) {
    const EdgeIndex b = g.row_offsets[v], e = g.row_offsets[v + 1];
    row.clear();
    for (EdgeIndex i = b; i < e; ++i)
      row.emplace_back(g.col_indices[i], g.int_weights[i]);
    std::sort(row.begin(), row.end());
    for (EdgeIndex i = b; i < e; ++i) {
      g.col_indices[i] = row[i - b].first;
      g.int_weights[i] = row[i - b].second;
    }
  }
  return g;
}

} // namespace dd::road
