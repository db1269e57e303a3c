// Minimum spanning forests: Kruskal on hand-made graphs of known weight
// (ties, parallel edges, directed inputs, several components), against an
// independent O(V^2) Prim on random graphs, and verify_spanning_forest() on
// every class of wrong forest with its message.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <tuple>
#include <vector>

#include "graph/edge_list.h"
#include "graph/generators.h"
#include "graph/mst.h"
#include "graph/weights.h"

namespace dd::graph {
namespace {

using Edges = std::vector<std::tuple<VertexId, VertexId, std::int32_t>>;

// A graph with int32 weights; `undirected` adds the reverse of every edge.
Csr weighted(std::uint64_t n, const Edges& edges, bool undirected = true) {
  EdgeList list;
  list.weight_type = WeightType::kInt32;
  for (const auto& [u, v, w] : edges) {
    list.add(u, v);
    list.int_weights.push_back(w);
  }
  Expected<Csr> g = build_csr(list, n, undirected);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g).value() : Csr();
}

// Kruskal's forest, which must also pass the checker with the same weight.
SpanningForest kruskal_ok(const Csr& g) {
  Expected<SpanningForest> f = kruskal_mst(g);
  EXPECT_TRUE(f.ok()) << f.status().message();
  if (!f.ok())
    return SpanningForest();
  EXPECT_EQ(f->num_trees, count_components(g));
  EXPECT_EQ(f->edges.size() + f->num_trees, g.num_vertices());
  Expected<std::uint64_t> w = verify_spanning_forest(g, f->edges);
  EXPECT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w.ok() ? *w : ~std::uint64_t{0}, f->weight);
  return std::move(f).value();
}

std::string verify_error(const Csr& g, const std::vector<MstEdge>& edges) {
  Expected<std::uint64_t> w = verify_spanning_forest(g, edges);
  EXPECT_FALSE(w.ok()) << "the forest unexpectedly verified (weight " << *w << ")";
  return w.ok() ? std::string() : w.status().message();
}

// ---- Kruskal on hand-made graphs -------------------------------------------

TEST(Kruskal, Triangle) {
  const SpanningForest f = kruskal_ok(weighted(3, {{0, 1, 1}, {1, 2, 2}, {0, 2, 3}}));
  EXPECT_EQ(f.weight, 3u);
  EXPECT_EQ(f.num_trees, 1u);
  EXPECT_EQ(f.edges, (std::vector<MstEdge>{{0, 1, 1}, {1, 2, 2}}));
}

TEST(Kruskal, SquareWithDiagonal) {
  // 0-1 (1), 0-2 (1) are taken; 1-2 (2) closes a cycle; 2-3 (3) joins 3;
  // 3-0 (4) closes a cycle.
  const SpanningForest f =
      kruskal_ok(weighted(4, {{0, 1, 1}, {1, 2, 2}, {2, 3, 3}, {3, 0, 4}, {0, 2, 1}}));
  EXPECT_EQ(f.weight, 5u);
  EXPECT_EQ(f.num_trees, 1u);
  EXPECT_EQ(f.edges, (std::vector<MstEdge>{{0, 1, 1}, {0, 2, 1}, {2, 3, 3}}));
}

TEST(Kruskal, TwoComponentsAndAnIsolatedVertex) {
  // {0, 1, 2}: 4 + 5; {3, 4}: 7; 5 alone.
  const SpanningForest f =
      kruskal_ok(weighted(6, {{0, 1, 4}, {1, 2, 5}, {2, 0, 6}, {4, 3, 7}}));
  EXPECT_EQ(f.weight, 16u);
  EXPECT_EQ(f.num_trees, 3u);
  EXPECT_EQ(f.edges.size(), 3u);
}

TEST(Kruskal, ParallelEdgesKeepTheLightestAndSelfLoopsAreIgnored) {
  const SpanningForest f = kruskal_ok(
      weighted(3, {{0, 1, 9}, {0, 1, 3}, {1, 0, 5}, {1, 2, 8}, {2, 1, 2}, {0, 0, 0}, {2, 2, 0}},
               /*undirected=*/false));
  EXPECT_EQ(f.weight, 5u);
  EXPECT_EQ(f.edges, (std::vector<MstEdge>{{1, 2, 2}, {0, 1, 3}}));
}

TEST(Kruskal, DirectedInputIsSymmetrized) {
  // Each edge listed in one direction only; 2 -> 0 and 0 -> 1 reach vertex 0
  // from both sides.
  const SpanningForest f =
      kruskal_ok(weighted(4, {{0, 1, 6}, {2, 0, 1}, {3, 2, 2}, {1, 3, 9}}, false));
  EXPECT_EQ(f.weight, 9u);
  EXPECT_EQ(f.num_trees, 1u);
  EXPECT_EQ(f.edges, (std::vector<MstEdge>{{0, 2, 1}, {2, 3, 2}, {0, 1, 6}}));
}

TEST(Kruskal, EqualWeightsGiveOneWeightWhateverTheTree) {
  // K4, every edge 7: any spanning tree weighs 21.
  Edges all;
  for (VertexId u = 0; u < 4; ++u)
    for (VertexId v = u + 1; v < 4; ++v)
      all.emplace_back(u, v, 7);
  const Csr g = weighted(4, all);
  const SpanningForest f = kruskal_ok(g);
  EXPECT_EQ(f.weight, 21u);
  // A star and a path (not Kruskal's tree) verify with the same weight.
  const std::vector<MstEdge> star = {{3, 0, 7}, {3, 1, 7}, {3, 2, 7}};
  const std::vector<MstEdge> path = {{2, 0, 7}, {0, 3, 7}, {3, 1, 7}};
  EXPECT_NE(star, f.edges);
  for (const auto* tree : {&star, &path}) {
    Expected<std::uint64_t> w = verify_spanning_forest(g, *tree);
    ASSERT_TRUE(w.ok()) << w.status().message();
    EXPECT_EQ(*w, 21u);
  }
}

TEST(Kruskal, LongPathNeedsNoDeepStack) {
  // Added in an order that builds long union-find chains before compression.
  constexpr VertexId kN = 300000;
  Edges path;
  std::uint64_t expected = 0;
  for (VertexId v = kN - 1; v > 0; --v) {
    path.emplace_back(v - 1, v, static_cast<std::int32_t>(v % 10));
    expected += v % 10;
  }
  const SpanningForest f = kruskal_ok(weighted(kN, path));
  EXPECT_EQ(f.weight, expected);
  EXPECT_EQ(f.num_trees, 1u);
}

TEST(Kruskal, UnweightedEdgesWeighOne) {
  Edges edges = {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {3, 4, 0}};
  Csr g = weighted(6, edges);
  g.clear_weights();
  const SpanningForest f = kruskal_ok(g);
  EXPECT_EQ(f.num_trees, 3u);
  EXPECT_EQ(f.weight, 6u - 3u);
}

TEST(Kruskal, ZeroWeightsAndLargeWeightsSumIn64Bits) {
  constexpr std::int32_t kBig = std::numeric_limits<std::int32_t>::max();
  const SpanningForest f =
      kruskal_ok(weighted(5, {{0, 1, kBig}, {1, 2, kBig}, {2, 3, kBig}, {3, 4, 0}}));
  EXPECT_EQ(f.weight, 3u * static_cast<std::uint64_t>(kBig));
}

TEST(Kruskal, EmptyAndEdgelessGraphs) {
  const SpanningForest empty = kruskal_ok(Csr());
  EXPECT_EQ(empty.weight, 0u);
  EXPECT_EQ(empty.num_trees, 0u);
  const SpanningForest lonely = kruskal_ok(weighted(4, {}));
  EXPECT_EQ(lonely.num_trees, 4u);
  EXPECT_TRUE(lonely.edges.empty());
}

TEST(Kruskal, FloatWeightsAndInvalidGraphsAreErrors) {
  Csr g = weighted(2, {{0, 1, 1}});
  g.weight_type = WeightType::kFloat32;
  g.float_weights = {1.5f, 1.5f};
  g.int_weights.clear();
  Expected<SpanningForest> f = kruskal_mst(g);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(),
            "the graph has float weights; a minimum spanning forest needs integer weights (its "
            "total is compared exactly)");
  EXPECT_FALSE(verify_spanning_forest(g, {}).ok());

  Csr bad = weighted(2, {{0, 1, 1}});
  bad.col_indices[0] = 7;
  Expected<SpanningForest> b = kruskal_mst(bad);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "invalid graph: edge 0: destination 7 out of range (2 vertices)");
}

// ---- against Prim ----------------------------------------------------------

// Prim's algorithm on a matrix of the lightest undirected weights, started
// again from every vertex not yet in a tree: O(V^2), independent of
// Kruskal's sorting and union-find.
struct PrimResult {
  std::uint64_t weight = 0;
  std::uint64_t trees = 0;
  std::vector<MstEdge> edges;
};

PrimResult prim(const Csr& g) {
  const std::uint64_t n = g.num_vertices();
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> w(n * n, kNone);
  for (std::uint64_t u = 0; u < n; ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const std::uint64_t v = g.col_indices[e];
      const std::int64_t x = g.has_weights() ? g.int_weights[e] : 1;
      if (u != v) {
        w[u * n + v] = std::min(w[u * n + v], x);
        w[v * n + u] = std::min(w[v * n + u], x);
      }
    }
  PrimResult r;
  std::vector<bool> in_tree(n, false);
  std::vector<std::int64_t> best(n, kNone);
  std::vector<std::uint64_t> from(n, 0);
  for (std::uint64_t added = 0; added < n; ++added) {
    // The cheapest vertex to attach; none attachable starts a new tree.
    std::uint64_t next = n;
    for (std::uint64_t v = 0; v < n; ++v)
      if (!in_tree[v] && best[v] != kNone && (next == n || best[v] < best[next]))
        next = v;
    if (next == n) {
      for (std::uint64_t v = 0; v < n && next == n; ++v)
        if (!in_tree[v])
          next = v;
      ++r.trees;
    } else {
      r.weight += static_cast<std::uint64_t>(best[next]);
      r.edges.push_back({static_cast<VertexId>(from[next]), static_cast<VertexId>(next),
                         static_cast<std::int32_t>(best[next])});
    }
    in_tree[next] = true;
    for (std::uint64_t v = 0; v < n; ++v)
      if (!in_tree[v] && w[next * n + v] < best[v]) {
        best[v] = w[next * n + v];
        from[v] = next;
      }
  }
  return r;
}

TEST(Kruskal, MatchesPrimOnRandomGraphs) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    SCOPED_TRACE(seed);
    // Empty to dense, directed and undirected; narrow weight ranges make
    // many ties, zero weights included.
    UniformParams p;
    p.num_vertices = 1 + seed % 47;
    p.num_edges = p.num_vertices * (seed % 6) / 2;
    p.seed = seed;
    p.undirected = seed % 2 == 0;
    Expected<Csr> g = generate_uniform(p);
    ASSERT_TRUE(g.ok()) << g.status().message();
    if (seed % 7 != 0) {  // else unweighted
      WeightOptions w;
      w.seed = seed;
      w.min_weight = seed % 3 == 0 ? 0 : 1;
      w.max_weight = seed % 4 == 0 ? 3 : 1000;
      w.symmetric = seed % 5 != 0;  // else u -> v and v -> u may differ
      ASSERT_TRUE(assign_uniform_weights(*g, w).ok());
    }
    const SpanningForest k = kruskal_ok(*g);
    const PrimResult pr = prim(*g);
    EXPECT_EQ(k.weight, pr.weight);
    EXPECT_EQ(k.num_trees, pr.trees);
    // Prim's forest is another minimum one: it verifies with the same weight.
    Expected<std::uint64_t> w = verify_spanning_forest(*g, pr.edges);
    ASSERT_TRUE(w.ok()) << w.status().message();
    EXPECT_EQ(*w, k.weight);
  }
}

TEST(Kruskal, MatchesPrimOnAGrid) {
  GridParams p;
  p.rows = 20;
  p.cols = 30;
  p.seed = 4;
  Expected<Csr> g = generate_grid(p);
  ASSERT_TRUE(g.ok()) << g.status().message();
  WeightOptions w;
  w.symmetric = true;
  ASSERT_TRUE(assign_uniform_weights(*g, w).ok());
  const SpanningForest k = kruskal_ok(*g);
  const PrimResult pr = prim(*g);
  EXPECT_EQ(k.weight, pr.weight);
  EXPECT_EQ(k.num_trees, pr.trees);
}

// ---- verify_spanning_forest --------------------------------------------------

// The square with a diagonal: 0-1 (1), 1-2 (2), 2-3 (3), 3-0 (4), 0-2 (1),
// plus a parallel 0-1 of weight 6.
Csr square() {
  return weighted(4, {{0, 1, 1}, {1, 2, 2}, {2, 3, 3}, {3, 0, 4}, {0, 2, 1}, {1, 0, 6}});
}

TEST(VerifySpanningForest, AcceptsAnySpanningForestAndReturnsItsWeight) {
  // Not minimum (4 + 2 + 3 > 5): the caller's comparison with Kruskal's
  // weight catches that.
  Expected<std::uint64_t> w = verify_spanning_forest(square(), {{3, 0, 4}, {2, 1, 2}, {2, 3, 3}});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(*w, 9u);
  // Either weight of a parallel pair exists in the graph.
  w = verify_spanning_forest(square(), {{1, 0, 6}, {0, 2, 1}, {2, 3, 3}});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(*w, 10u);
}

TEST(VerifySpanningForest, Cycle) {
  EXPECT_EQ(verify_error(square(), {{0, 1, 1}, {1, 2, 2}, {2, 0, 1}}),
            "edge 2 (2 - 0, weight 1) closes a cycle: 2 and 0 are already connected by earlier "
            "edges");
  // The same edge twice is a cycle of two.
  EXPECT_EQ(verify_error(square(), {{0, 1, 1}, {1, 0, 1}}),
            "edge 1 (1 - 0, weight 1) closes a cycle: 1 and 0 are already connected by earlier "
            "edges");
}

TEST(VerifySpanningForest, MissingEdge) {
  EXPECT_EQ(verify_error(square(), {{0, 1, 1}, {1, 3, 2}, {2, 3, 3}}),
            "edge 1 (1 - 3, weight 2): the graph has no edge between 1 and 3");
}

TEST(VerifySpanningForest, WrongWeight) {
  EXPECT_EQ(verify_error(square(), {{0, 2, 1}, {0, 1, 2}, {2, 3, 3}}),
            "edge 1 (0 - 1, weight 2): the graph has no edge of weight 2 between 0 and 1 (the "
            "lightest weighs 1)");
}

TEST(VerifySpanningForest, NotSpanning) {
  const std::string message = verify_error(square(), {{0, 1, 1}, {2, 3, 3}});
  EXPECT_EQ(message, "the forest does not span the graph: its 2 trees are more than the graph's 1 "
                     "components (the graph edge 0 -> 3 joins two of them)");
  // Two components and an isolated vertex: one tree missing an edge.
  const Csr g = weighted(6, {{0, 1, 4}, {1, 2, 5}, {4, 3, 7}});
  EXPECT_EQ(verify_error(g, {{0, 1, 4}, {3, 4, 7}}),
            "the forest does not span the graph: its 4 trees are more than the graph's 3 "
            "components (the graph edge 1 -> 2 joins two of them)");
  Expected<std::uint64_t> w = verify_spanning_forest(g, {{0, 1, 4}, {3, 4, 7}, {2, 1, 5}});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(*w, 16u);
}

TEST(VerifySpanningForest, BadEndpointsAndTooManyEdges) {
  EXPECT_EQ(verify_error(square(), {{0, 4, 1}}),
            "edge 0 (0 - 4, weight 1): vertex 4 is out of range (4 vertices)");
  EXPECT_EQ(verify_error(square(), {{0, 1, 1}, {2, 2, 0}}),
            "edge 1 (2 - 2, weight 0): a self loop is never a forest edge");
  EXPECT_EQ(verify_error(square(), {{0, 1, 1}, {1, 2, 2}, {2, 3, 3}, {3, 0, 4}}),
            "4 edges for 4 vertices: a forest has fewer edges than vertices");
  EXPECT_EQ(verify_error(Csr(), {{0, 1, 1}}),
            "1 edges for 0 vertices: a forest has fewer edges than vertices");
}

TEST(VerifySpanningForest, DirectedInputCountsBothDirections) {
  // Only 1 -> 0 and 2 -> 1 are stored; the forest names them the other way.
  const Csr g = weighted(3, {{1, 0, 5}, {2, 1, 6}}, false);
  Expected<std::uint64_t> w = verify_spanning_forest(g, {{0, 1, 5}, {1, 2, 6}});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(*w, 11u);
  EXPECT_EQ(verify_error(g, {{0, 1, 5}}),
            "the forest does not span the graph: its 2 trees are more than the graph's 1 "
            "components (the graph edge 2 -> 1 joins two of them)");
}

} // namespace
} // namespace dd::graph
