// The road-like network generator (road/road.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "dmr/triangulate.h"
#include "graph/mst.h"
#include "road/road.h"

namespace dd::road {
namespace {

using graph::Csr;
using graph::EdgeIndex;
using graph::VertexId;

Csr road(std::uint64_t n, double degree = kUsaRoadMeanDegree, std::uint64_t seed = 1) {
  graph::Expected<Csr> g = generate_road(RoadParams{n, degree, seed});
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g).value() : Csr();
}

// The Delaunay edges of the points the generator starts from, u < v.
std::set<std::pair<VertexId, VertexId>> delaunay_edges(std::uint64_t n, std::uint64_t seed) {
  graph::Expected<dmr::Mesh> m = dmr::random_square_mesh(static_cast<std::int64_t>(n) - 4, seed);
  EXPECT_TRUE(m.ok());
  std::set<std::pair<VertexId, VertexId>> edges;
  for (std::int64_t t = 0; t < m->num_slots(); ++t)
    for (int k = 0; k < 3; ++k) {
      const auto a = static_cast<VertexId>(m->v[3 * t + k]), b = static_cast<VertexId>(m->v[3 * t + (k + 1) % 3]);
      edges.emplace(std::min(a, b), std::max(a, b));
    }
  return edges;
}

// Symmetric with equal weights, no self loop, no parallel arc, rows sorted,
// every arc a Delaunay edge, every weight positive.
void expect_simple_planar_roads(const Csr &g, std::uint64_t seed) {
  ASSERT_TRUE(graph::validate(g).ok());
  ASSERT_EQ(g.weight_type, graph::WeightType::kInt32);
  const auto delaunay = delaunay_edges(g.num_vertices(), seed);
  std::set<std::pair<VertexId, VertexId>> arcs;
  for (VertexId u = 0; u < g.num_vertices(); ++u)
    for (EdgeIndex i = g.row_offsets[u]; i < g.row_offsets[u + 1]; ++i) {
      const VertexId v = g.col_indices[i];
      EXPECT_NE(u, v);
      EXPECT_GE(g.int_weights[i], 1);
      if (i > g.row_offsets[u])
        EXPECT_LT(g.col_indices[i - 1], v) << "row " << u << " unsorted or parallel arcs";
      EXPECT_TRUE(delaunay.count({std::min(u, v), std::max(u, v)})) << u << "-" << v << " is no Delaunay edge";
      arcs.emplace(u, v);
    }
  for (VertexId u = 0; u < g.num_vertices(); ++u)
    for (EdgeIndex i = g.row_offsets[u]; i < g.row_offsets[u + 1]; ++i) {
      const VertexId v = g.col_indices[i];
      const auto row_begin = g.col_indices.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[v]);
      const auto row_end = g.col_indices.begin() + static_cast<std::ptrdiff_t>(g.row_offsets[v + 1]);
      const auto back = std::lower_bound(row_begin, row_end, u);
      ASSERT_TRUE(back != row_end && *back == u) << "arc " << u << "->" << v << " has no reverse";
      EXPECT_EQ(g.int_weights[static_cast<std::size_t>(back - g.col_indices.begin())], g.int_weights[i]);
    }
}

TEST(Road, ConnectedSimplePlanarAtTheMeanDegree) {
  for (std::uint64_t n : {4ull, 5ull, 100ull, 5000ull}) {
    const Csr g = road(n);
    SCOPED_TRACE(n);
    ASSERT_EQ(g.num_vertices(), n);
    expect_simple_planar_roads(g, 1);
    EXPECT_EQ(graph::count_components(g), 1u);
    // As many roads as asked, when the candidates allow (they do from a few
    // hundred points on: about 2n Delaunay edges are outside the tree).
    if (n >= 100)
      EXPECT_EQ(g.num_edges(), 2 * (n - 1 + static_cast<std::uint64_t>(std::llround((kUsaRoadMeanDegree - 2) * n / 2))));
  }
}

TEST(Road, DegreeTwoIsTheEuclideanMinimumSpanningTree) {
  const std::uint64_t n = 3000;
  const Csr tree = road(n, 2.0);
  EXPECT_EQ(tree.num_edges(), 2 * (n - 1));
  EXPECT_EQ(graph::count_components(tree), 1u);
  // The roads added above it never shorten the tree: it was minimum among
  // all Delaunay edges already.
  const Csr g = road(n, 4.0);
  EXPECT_EQ(g.num_edges(), 2 * (n - 1 + n));
  const auto t = graph::kruskal_mst(tree), m = graph::kruskal_mst(g);
  ASSERT_TRUE(t.ok() && m.ok());
  EXPECT_EQ(t->weight, m->weight);
  EXPECT_EQ(t->edges, m->edges);
}

TEST(Road, ExtraRoadsAreNoLongerThanTheTreesLongest) {
  const Csr tree = road(4000, 2.0), g = road(4000, 5.0);
  const std::int32_t longest = *std::max_element(tree.int_weights.begin(), tree.int_weights.end());
  EXPECT_EQ(*std::max_element(g.int_weights.begin(), g.int_weights.end()), longest);
  // The mean length of a road is about the points' spacing, 2^20 / sqrt(n).
  double sum = 0;
  for (std::int32_t w : g.int_weights)
    sum += w;
  const double spacing = (1 << 20) / std::sqrt(4000.0);
  EXPECT_GT(sum / static_cast<double>(g.num_edges()), 0.3 * spacing);
  EXPECT_LT(sum / static_cast<double>(g.num_edges()), 1.5 * spacing);
}

TEST(Road, DeterministicPerSeed) {
  EXPECT_TRUE(road(2000, 2.44, 7) == road(2000, 2.44, 7));
  EXPECT_FALSE(road(2000, 2.44, 7) == road(2000, 2.44, 8));
  EXPECT_FALSE(road(2000, 2.44, 7) == road(2000, 2.6, 7));
}

TEST(Road, Errors) {
  EXPECT_FALSE(generate_road(RoadParams{3, 2.44, 1}).ok());
  EXPECT_FALSE(generate_road(RoadParams{0, 2.44, 1}).ok());
  EXPECT_FALSE(generate_road(RoadParams{100, 1.9, 1}).ok());
  EXPECT_FALSE(generate_road(RoadParams{100, 5.1, 1}).ok());
  EXPECT_FALSE(generate_road(RoadParams{100, std::nan(""), 1}).ok());
  const auto huge = generate_road(RoadParams{1ull << 40, 2.44, 1});
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("not in [4, "), std::string::npos) << huge.status().message();
}

} // namespace
} // namespace dd::road
