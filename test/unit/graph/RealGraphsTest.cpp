// The readers on the real graphs in ../shared/data/graphs (see its README.md).
// Each test skips cleanly when the data folder is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <sys/stat.h>

#include "GraphTestUtil.h"
#include "graph/file.h"
#include "graph/graph_io.h"
#include "graph/reference.h"
#include "graph/stats.h"
#include "graph/weights.h"

namespace dd::graph {
namespace {

// Loads a graph of the data folder, or skips the test when it is missing.
#define LOAD_OR_SKIP(var, file, options)                                        \
  const std::string var##_path = test::data_dir() + "/" + (file);               \
  struct stat var##_st;                                                         \
  if (::stat(var##_path.c_str(), &var##_st) != 0)                               \
    GTEST_SKIP() << "no " << var##_path << " (shared graph data not present)"; \
  Format var##_format = Format::kAuto;                                          \
  Expected<Csr> var##_read = read_graph(var##_path, (options), &var##_format);  \
  ASSERT_TRUE(var##_read.ok()) << var##_read.status().message();                \
  const Csr& var = *var##_read;                                                 \
  ASSERT_TRUE(validate(var).ok()) << validate(var).message()

// True when every edge (u, v) has a matching (v, u) (as a multiset).
bool is_symmetric(const Csr& g) {
  std::vector<std::pair<VertexId, VertexId>> forward = test::edge_pairs(g), backward;
  for (auto [u, v] : forward)
    backward.emplace_back(v, u);
  std::sort(forward.begin(), forward.end());
  std::sort(backward.begin(), backward.end());
  return forward == backward;
}

TEST(RealGraphs, ChesapeakeMatrixMarketSymmetric) {
  LOAD_OR_SKIP(g, "chesapeake.mtx", ReadOptions{});
  EXPECT_EQ(g_format, Format::kMatrixMarket);
  EXPECT_EQ(g.num_vertices(), 39u);
  EXPECT_EQ(g.num_edges(), 340u);  // 170 off-diagonal entries, both directions
  EXPECT_EQ(g.weight_type, WeightType::kNone);
  EXPECT_TRUE(is_symmetric(g));
  const GraphStats s = compute_stats(g);
  EXPECT_EQ(s.self_loops, 0u);
  EXPECT_EQ(s.zero_degree, 0u);
  // Connected: BFS from 0 reaches every vertex.
  Expected<std::vector<std::uint32_t>> level = bfs(g, 0);
  ASSERT_TRUE(level.ok());
  EXPECT_EQ(std::count(level->begin(), level->end(), kUnreachedLevel), 0);
}

TEST(RealGraphs, WikiVoteSnapWithIdGaps) {
  LOAD_OR_SKIP(g, "wiki-Vote.txt", ReadOptions{});
  EXPECT_EQ(g_format, Format::kSnap);
  // Ids are used as they are: the largest is 8297, so 8298 vertices, of which
  // 7115 (the "# Nodes:" figure) appear in an edge.
  EXPECT_EQ(g.num_vertices(), 8298u);
  EXPECT_EQ(g.num_edges(), 103689u);
  std::vector<bool> seen(g.num_vertices(), false);
  for (auto [u, v] : test::edge_pairs(g))
    seen[u] = seen[v] = true;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 7115);
  // The first edges of the file, "30 1412" and "30 3352", lead vertex 30's row.
  ASSERT_GE(g.degree(30), 2u);
  EXPECT_EQ(g.col_indices[g.row_offsets[30]], 1412u);
  EXPECT_EQ(g.col_indices[g.row_offsets[30] + 1], 3352u);
}

TEST(RealGraphs, LuxembourgOneBasedUndirectedEdgeList) {
  ReadOptions options;
  options.index_base = 1;
  options.symmetrize = true;
  LOAD_OR_SKIP(g, "luxembourg_osm.edges", options);
  EXPECT_EQ(g_format, Format::kEdgeList);
  EXPECT_EQ(g.num_vertices(), 114599u);
  EXPECT_EQ(g.num_edges(), 2u * 119666u);
  EXPECT_TRUE(is_symmetric(g));
  // A road network: small degrees.
  EXPECT_LE(compute_stats(g).max_degree, 8u);
}

TEST(RealGraphs, LuxembourgZeroBasedByDefaultHasAnIsolatedVertexZero) {
  LOAD_OR_SKIP(g, "luxembourg_osm.edges", ReadOptions{});
  EXPECT_EQ(g.num_vertices(), 114600u);
  EXPECT_EQ(g.num_edges(), 119666u);
  EXPECT_EQ(g.degree(0), 0u);
}

// DIMACS text and .gr written from a real graph read back identically: the
// two formats without a real sample in the data folder, at real size.
TEST(RealGraphs, LuxembourgThroughDimacsAndGr) {
  ReadOptions options;
  options.index_base = 1;
  options.symmetrize = true;
  LOAD_OR_SKIP(g0, "luxembourg_osm.edges", options);
  Csr g = g0;
  WeightOptions w;
  w.seed = 42;
  w.symmetric = true;
  ASSERT_TRUE(assign_uniform_weights(g, w).ok());

  std::string dimacs = "c luxembourg_osm with seeded weights\np sp " +
                       std::to_string(g.num_vertices()) + " " + std::to_string(g.num_edges()) +
                       "\n";
  for (std::uint64_t u = 0; u < g.num_vertices(); ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      dimacs += "a " + std::to_string(u + 1) + " " + std::to_string(g.col_indices[e] + 1) + " " +
                std::to_string(g.int_weights[e]) + "\n";
  Expected<Csr> from_dimacs = parse_graph(dimacs, "luxembourg.gr");
  ASSERT_TRUE(from_dimacs.ok()) << from_dimacs.status().message();
  EXPECT_EQ(*from_dimacs, g);

  Expected<std::string> bytes = gr_bytes(g);
  ASSERT_TRUE(bytes.ok());
  Expected<Csr> from_gr = parse_graph(*bytes, "luxembourg-bin.gr");
  ASSERT_TRUE(from_gr.ok()) << from_gr.status().message();
  EXPECT_EQ(*from_gr, g);

  // Symmetric weights: w(u, v) == w(v, u) for every edge.
  for (std::uint64_t u = 0; u < std::min<std::uint64_t>(g.num_vertices(), 2000); ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const VertexId v = g.col_indices[e];
      bool found = false;
      for (EdgeIndex f = g.row_offsets[v]; f < g.row_offsets[v + 1]; ++f)
        found = found || (g.col_indices[f] == u && g.int_weights[f] == g.int_weights[e]);
      EXPECT_TRUE(found) << u << " -> " << v;
    }
}

TEST(RealGraphs, WikiVoteThroughMatrixMarketAndGr) {
  LOAD_OR_SKIP(g, "wiki-Vote.txt", ReadOptions{});
  std::string mtx = "%%MatrixMarket matrix coordinate pattern general\n% from wiki-Vote\n" +
                    std::to_string(g.num_vertices()) + " " + std::to_string(g.num_vertices()) +
                    " " + std::to_string(g.num_edges()) + "\n";
  for (auto [u, v] : test::edge_pairs(g))
    mtx += std::to_string(u + 1) + " " + std::to_string(v + 1) + "\n";
  Expected<Csr> from_mtx = parse_graph(mtx, "wiki.mtx");
  ASSERT_TRUE(from_mtx.ok()) << from_mtx.status().message();
  EXPECT_EQ(*from_mtx, g);
  Expected<std::string> bytes = gr_bytes(g);
  ASSERT_TRUE(bytes.ok());
  Expected<Csr> from_gr = parse_graph(*bytes, "wiki.gr");
  ASSERT_TRUE(from_gr.ok());
  EXPECT_EQ(*from_gr, g);
}

} // namespace
} // namespace dd::graph
