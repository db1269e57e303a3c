// Helpers shared by the graph library's unit tests.
#ifndef DD_TEST_GRAPH_TEST_UTIL_H
#define DD_TEST_GRAPH_TEST_UTIL_H

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "graph/csr.h"
#include "graph/graph_io.h"

namespace dd::graph::test {

/// The out-edges of every vertex as (source, destination) pairs, in CSR order.
inline std::vector<std::pair<VertexId, VertexId>> edge_pairs(const Csr& g) {
  std::vector<std::pair<VertexId, VertexId>> pairs;
  for (std::uint64_t u = 0; u < g.num_vertices(); ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e)
      pairs.emplace_back(static_cast<VertexId>(u), g.col_indices[e]);
  return pairs;
}

/// Parses `text` as a file called `name`; fails the test on an error.
inline Csr parse_ok(std::string_view text, std::string_view name, ReadOptions options = {}) {
  Expected<Csr> g = parse_graph(text, name, options);
  EXPECT_TRUE(g.ok()) << g.status().message();
  if (!g.ok())
    return Csr();
  EXPECT_TRUE(validate(*g).ok()) << validate(*g).message();
  return std::move(g).value();
}

/// The error message of parsing `text` as `name`; fails the test on success.
inline std::string parse_error(std::string_view text, std::string_view name,
                               ReadOptions options = {}) {
  Expected<Csr> g = parse_graph(text, name, options);
  EXPECT_FALSE(g.ok()) << "parsing " << name << " unexpectedly succeeded";
  return g.ok() ? std::string() : g.status().message();
}

/// Where the real graphs live (../shared/data/graphs beside the checkout);
/// tests that need them GTEST_SKIP when it is absent.
inline std::string data_dir() { return DD_GRAPH_DATA_DIR; }

} // namespace dd::graph::test

#endif // DD_TEST_GRAPH_TEST_UTIL_H
