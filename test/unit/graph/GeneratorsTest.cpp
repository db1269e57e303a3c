// Generators: determinism for a seed, sizes, and the shape each promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "GraphTestUtil.h"
#include "graph/generators.h"
#include "graph/random.h"
#include "graph/stats.h"
#include "graph/weights.h"

namespace dd::graph {
namespace {

Csr kron(std::uint32_t scale, std::uint64_t seed, bool undirected = true) {
  KroneckerParams p;
  p.scale = scale;
  p.seed = seed;
  p.undirected = undirected;
  Expected<Csr> g = generate_kronecker(p);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g).value() : Csr();
}

TEST(Kronecker, DeterministicForASeed) {
  const Csr a = kron(10, 7);
  const Csr b = kron(10, 7);
  const Csr c = kron(10, 8);
  EXPECT_TRUE(validate(a).ok());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(Kronecker, EdgeCounts) {
  const Csr directed = kron(10, 3, false);
  EXPECT_EQ(directed.num_vertices(), 1024u);
  EXPECT_EQ(directed.num_edges(), 16u * 1024);
  const Csr undirected = kron(10, 3, true);
  const std::uint64_t loops = compute_stats(directed).self_loops;
  // Same generated edges, each doubled except self loops.
  EXPECT_EQ(undirected.num_edges(), 2 * directed.num_edges() - loops);
}

TEST(Kronecker, DegreesAreSkewed) {
  const Csr g = kron(14, 1);
  const GraphStats s = compute_stats(g);
  // Power-law-like: the largest degree is far above the mean (32), and many
  // vertices are isolated; a uniform graph of this size has max ~ 2x mean.
  EXPECT_GT(static_cast<double>(s.max_degree), 20 * s.mean_degree);
  EXPECT_GT(s.zero_degree, g.num_vertices() / 10);
  EXPECT_GT(s.degree_stddev, 2 * s.mean_degree);
}

TEST(Kronecker, PermutationSpreadsHubs) {
  // Without the label permutation vertex 0 is the hub (quadrant A is the most
  // likely at every level); with it, the hub is somewhere else.
  KroneckerParams p;
  p.scale = 12;
  p.permute = false;
  Expected<Csr> plain = generate_kronecker(p);
  ASSERT_TRUE(plain.ok());
  const GraphStats s = compute_stats(*plain);
  EXPECT_EQ(plain->degree(0), s.max_degree);
}

TEST(Kronecker, RejectsBadParameters) {
  KroneckerParams p;
  p.scale = 0;
  EXPECT_FALSE(generate_kronecker(p).ok());
  p.scale = 40;
  EXPECT_FALSE(generate_kronecker(p).ok());
  p.scale = 10;
  p.a = 0.9;
  Expected<Csr> bad = generate_kronecker(p);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("a + b + c <= 1"), std::string::npos);
}

TEST(Uniform, CountsDeterminismAndRange) {
  UniformParams p;
  p.num_vertices = 1000;
  p.num_edges = 5000;
  p.seed = 5;
  Expected<Csr> a = generate_uniform(p);
  Expected<Csr> b = generate_uniform(p);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(a->num_vertices(), 1000u);
  EXPECT_EQ(a->num_edges(), 5000u);
  EXPECT_TRUE(validate(*a).ok());
  // Uniform: no vertex far above the mean of 5.
  EXPECT_LT(compute_stats(*a).max_degree, 25u);
  p.undirected = true;
  Expected<Csr> u = generate_uniform(p);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->num_edges(), 2 * 5000u - compute_stats(*a).self_loops);
  p.num_vertices = 0;
  EXPECT_FALSE(generate_uniform(p).ok());
}

TEST(Grid, FullGridHasExactDegrees) {
  GridParams p;
  p.rows = 7;
  p.cols = 9;
  p.remove_probability = 0;
  p.shortcut_probability = 0;
  Expected<Csr> g = generate_grid(p);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->num_vertices(), 63u);
  EXPECT_EQ(g->num_edges(), 2u * (7 * 8 + 6 * 9));
  EXPECT_EQ(g->degree(0), 2u);       // corner
  EXPECT_EQ(g->degree(4), 3u);       // top edge
  EXPECT_EQ(g->degree(9 + 4), 4u);   // interior
  for (auto [u, v] : test::edge_pairs(*g)) {
    const int dr = std::abs(static_cast<int>(u / 9) - static_cast<int>(v / 9));
    const int dc = std::abs(static_cast<int>(u % 9) - static_cast<int>(v % 9));
    EXPECT_EQ(dr + dc, 1) << u << " -> " << v;
  }
}

TEST(Grid, RemovalsAndShortcutsStayLocal) {
  GridParams p;
  p.rows = 100;
  p.cols = 120;
  p.remove_probability = 0.1;
  p.shortcut_probability = 0.05;
  p.shortcut_radius = 3;
  p.seed = 9;
  Expected<Csr> g = generate_grid(p);
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(validate(*g).ok());
  EXPECT_EQ(*g, *generate_grid(p));

  const std::uint64_t n = g->num_vertices();
  std::vector<std::uint64_t> extra(n, 0);  // shortcut ends at each vertex
  std::uint64_t shortcuts = 0;
  for (auto [u, v] : test::edge_pairs(*g)) {
    const int dr = std::abs(static_cast<int>(u / p.cols) - static_cast<int>(v / p.cols));
    const int dc = std::abs(static_cast<int>(u % p.cols) - static_cast<int>(v % p.cols));
    EXPECT_LE(dr, 3);
    EXPECT_LE(dc, 3);
    EXPECT_NE(u, v);
    if (dr + dc != 1) {  // not a grid link
      ++extra[u];
      ++shortcuts;
    }
  }
  // Degree <= 4 grid links + the shortcuts touching the vertex (each
  // undirected shortcut shows up in both rows).
  for (std::uint64_t v = 0; v < n; ++v)
    EXPECT_LE(g->degree(static_cast<VertexId>(v)), 4 + extra[v]);
  // About 10% of 2 * (100 * 119 + 99 * 120) links removed, ~5% of vertices
  // add a shortcut; generous bounds.
  const std::uint64_t links = 2 * (100 * 119 + 99 * 120);
  const std::uint64_t grid_edges = g->num_edges() - shortcuts;
  EXPECT_GT(grid_edges, links * 85 / 100);
  EXPECT_LT(grid_edges, links * 95 / 100);
  EXPECT_GT(shortcuts, 2 * n * 3 / 100);
  EXPECT_LT(shortcuts, 2 * n * 7 / 100);
}

TEST(Grid, RejectsBadParameters) {
  GridParams p;
  p.rows = 0;
  EXPECT_FALSE(generate_grid(p).ok());
  p.rows = 10;
  p.remove_probability = 1.5;
  EXPECT_FALSE(generate_grid(p).ok());
  p.remove_probability = 0;
  p.rows = 70000;
  p.cols = 70000;  // 4.9e9 vertices: more than 32-bit ids
  EXPECT_FALSE(generate_grid(p).ok());
}

TEST(Weights, UniformInRangeDeterministicAndSymmetric) {
  Csr g = kron(8, 2);
  WeightOptions w;
  w.seed = 11;
  ASSERT_TRUE(assign_uniform_weights(g, w).ok());
  ASSERT_EQ(g.weight_type, WeightType::kInt32);
  ASSERT_EQ(g.int_weights.size(), g.num_edges());
  EXPECT_EQ(*std::min_element(g.int_weights.begin(), g.int_weights.end()), 1);
  EXPECT_EQ(*std::max_element(g.int_weights.begin(), g.int_weights.end()), 255);
  Csr again = kron(8, 2);
  ASSERT_TRUE(assign_uniform_weights(again, w).ok());
  EXPECT_EQ(g, again);

  w.symmetric = true;
  ASSERT_TRUE(assign_uniform_weights(g, w).ok());
  for (std::uint64_t u = 0; u < g.num_vertices(); ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const VertexId v = g.col_indices[e];
      for (EdgeIndex f = g.row_offsets[v]; f < g.row_offsets[v + 1]; ++f)
        if (g.col_indices[f] == u)
          EXPECT_EQ(g.int_weights[f], g.int_weights[e]);
    }

  w.min_weight = 5;
  w.max_weight = 4;
  EXPECT_FALSE(assign_uniform_weights(g, w).ok());
}

TEST(Random, KnownValuesPinTheStreams) {
  // Pinned so that generated graphs never change silently across versions.
  EXPECT_EQ(hash64(0), 0xe220a8397b1dcdafull);  // SplitMix64's first output for seed 0
  Xoshiro256 a(1), b(1);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(a.next(), b.next());
  for (int i = 0; i < 1000; ++i)
    EXPECT_LT(a.below(7), 7u);
}

} // namespace
} // namespace dd::graph
