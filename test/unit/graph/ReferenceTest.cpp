// CPU references: Dijkstra against brute-force Bellman-Ford, BFS against
// Dijkstra with unit weights, and the edge cases (unreachable, bad source).
#include <gtest/gtest.h>

#include <cmath>

#include "GraphTestUtil.h"
#include "graph/generators.h"
#include "graph/reference.h"
#include "graph/stats.h"
#include "graph/weights.h"

namespace dd::graph {
namespace {

// Textbook Bellman-Ford: relax every edge until nothing changes.
std::vector<std::uint64_t> bellman_ford(const Csr& g, VertexId source) {
  std::vector<std::uint64_t> dist(g.num_vertices(), kInfDistance);
  dist[source] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint64_t u = 0; u < g.num_vertices(); ++u) {
      if (dist[u] == kInfDistance)
        continue;
      for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
        const std::uint64_t w = g.has_weights() ? static_cast<std::uint64_t>(g.int_weights[e]) : 1;
        if (dist[u] + w < dist[g.col_indices[e]]) {
          dist[g.col_indices[e]] = dist[u] + w;
          changed = true;
        }
      }
    }
  }
  return dist;
}

Csr random_graph(std::uint64_t n, std::uint64_t m, std::uint64_t seed, bool undirected) {
  UniformParams p;
  p.num_vertices = n;
  p.num_edges = m;
  p.seed = seed;
  p.undirected = undirected;
  Expected<Csr> g = generate_uniform(p);
  EXPECT_TRUE(g.ok());
  return g.ok() ? std::move(g).value() : Csr();
}

TEST(Dijkstra, MatchesBellmanFordOnRandomGraphs) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    // Sparse (many unreachable vertices) to dense; directed and undirected.
    const std::uint64_t n = 10 + seed * 7;
    const std::uint64_t m = n * (seed % 5);
    Csr g = random_graph(n, m, seed, seed % 2 == 0);
    WeightOptions w;
    w.seed = seed;
    w.min_weight = seed % 3 == 0 ? 0 : 1;  // zero weights too
    w.max_weight = seed % 4 == 0 ? 3 : 255;
    ASSERT_TRUE(assign_uniform_weights(g, w).ok());
    const VertexId source = static_cast<VertexId>(seed % n);
    Expected<std::vector<std::uint64_t>> d = dijkstra(g, source);
    ASSERT_TRUE(d.ok()) << d.status().message();
    EXPECT_EQ(*d, bellman_ford(g, source));
  }
}

TEST(Dijkstra, MatchesBellmanFordOnKronecker) {
  KroneckerParams p;
  p.scale = 9;
  p.edge_factor = 4;
  p.seed = 3;
  Expected<Csr> g = generate_kronecker(p);
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(assign_uniform_weights(*g, WeightOptions{}).ok());
  const VertexId hub = [&] {
    VertexId best = 0;
    for (VertexId v = 0; v < g->num_vertices(); ++v)
      if (g->degree(v) > g->degree(best))
        best = v;
    return best;
  }();
  Expected<std::vector<std::uint64_t>> d = dijkstra(*g, hub);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, bellman_ford(*g, hub));
}

TEST(Bfs, EqualsDijkstraWithUnitWeights) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    Csr g = random_graph(200, 100 + 40 * seed, seed, seed % 2 == 1);
    const VertexId source = static_cast<VertexId>(seed * 13 % 200);
    Expected<std::vector<std::uint32_t>> level = bfs(g, source);
    ASSERT_TRUE(level.ok());
    assign_unit_weights(g);
    Expected<std::vector<std::uint64_t>> dist = dijkstra(g, source);
    ASSERT_TRUE(dist.ok());
    for (std::uint64_t v = 0; v < g.num_vertices(); ++v) {
      if ((*dist)[v] == kInfDistance)
        EXPECT_EQ((*level)[v], kUnreachedLevel) << v;
      else
        EXPECT_EQ((*level)[v], (*dist)[v]) << v;
    }
  }
}

TEST(Bfs, GridLevelsAreManhattanDistances) {
  GridParams p;
  p.rows = 20;
  p.cols = 30;
  p.remove_probability = 0;
  p.shortcut_probability = 0;
  Expected<Csr> g = generate_grid(p);
  ASSERT_TRUE(g.ok());
  Expected<std::vector<std::uint32_t>> level = bfs(*g, 0);
  ASSERT_TRUE(level.ok());
  for (std::uint32_t v = 0; v < 600; ++v)
    EXPECT_EQ((*level)[v], v / 30 + v % 30);
}

TEST(References, UnweightedDijkstraUsesUnitWeights) {
  Csr g;
  g.row_offsets = {0, 1, 2, 2, 2};
  g.col_indices = {1, 2};
  Expected<std::vector<std::uint64_t>> d = dijkstra(g, 0);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, (std::vector<std::uint64_t>{0, 1, 2, kInfDistance}));
}

TEST(References, FloatDijkstra) {
  Csr g;
  g.row_offsets = {0, 2, 3, 3};
  g.col_indices = {1, 2, 2};
  g.weight_type = WeightType::kFloat32;
  g.float_weights = {0.5f, 2.0f, 0.25f};
  Expected<std::vector<double>> d = dijkstra_float(g, 0);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, (std::vector<double>{0.0, 0.5, 0.75}));
  EXPECT_FALSE(dijkstra(g, 0).ok());  // float weights need dijkstra_float
  Expected<std::vector<double>> from2 = dijkstra_float(g, 2);
  ASSERT_TRUE(from2.ok());
  EXPECT_TRUE(std::isinf((*from2)[0]));
}

TEST(References, LargeWeightsDoNotOverflow) {
  // A path of 3 edges of weight 2^31 - 1: 3 * (2^31 - 1) > 2^32.
  Csr g;
  g.row_offsets = {0, 1, 2, 3, 3};
  g.col_indices = {1, 2, 3};
  g.weight_type = WeightType::kInt32;
  g.int_weights = {2147483647, 2147483647, 2147483647};
  Expected<std::vector<std::uint64_t>> d = dijkstra(g, 0);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)[3], 3ull * 2147483647ull);
}

TEST(References, BadSourceAndNegativeWeightsAreErrors) {
  Csr g;
  g.row_offsets = {0, 1, 1};
  g.col_indices = {1};
  g.weight_type = WeightType::kInt32;
  g.int_weights = {-1};
  Expected<std::vector<std::uint64_t>> d = dijkstra(g, 0);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("negative weight -1"), std::string::npos);
  Expected<std::vector<std::uint32_t>> b = bfs(g, 2);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("source vertex 2 is out of range"), std::string::npos);
}

TEST(Stats, CountsLoopsDuplicatesAndDegrees) {
  Csr g;
  g.row_offsets = {0, 3, 3, 4};
  g.col_indices = {0, 2, 2, 1};
  const GraphStats s = compute_stats(g);
  EXPECT_EQ(s.num_vertices, 3u);
  EXPECT_EQ(s.num_edges, 4u);
  EXPECT_EQ(s.min_degree, 0u);
  EXPECT_EQ(s.max_degree, 3u);
  EXPECT_EQ(s.zero_degree, 1u);
  EXPECT_EQ(s.self_loops, 1u);
  EXPECT_EQ(s.duplicate_edges, 1u);
}

} // namespace
} // namespace dd::graph
