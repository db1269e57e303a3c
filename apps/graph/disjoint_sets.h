// Union-find over vertex ids, for the graph library and the generators that
// need it (Kruskal's minimum spanning forest, the road networks' tree).
#ifndef DD_GRAPH_DISJOINT_SETS_H
#define DD_GRAPH_DISJOINT_SETS_H

#include <cstdint>
#include <utility>
#include <vector>

#include "graph/csr.h"

namespace dd::graph {

// Union-find with path compression and union by rank: near-constant
// amortized time per operation (inverse Ackermann).
class DisjointSets {
public:
  explicit DisjointSets(std::uint64_t n) : parent_(n), rank_(n, 0) {
    for (std::uint64_t v = 0; v < n; ++v)
      parent_[v] = static_cast<VertexId>(v);
  }

  VertexId find(VertexId v) {
    VertexId root = v;
    while (parent_[root] != root)
      root = parent_[root];
    // Second pass: point the whole path at the root (iterative, so a long
    // chain needs no deep stack).
    while (parent_[v] != root) {
      const VertexId next = parent_[v];
      parent_[v] = root;
      v = next;
    }
    return root;
  }

  /// Joins the sets of a and b; false when they were one set already.
  bool unite(VertexId a, VertexId b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return false;
    if (rank_[a] < rank_[b])
      std::swap(a, b);
    parent_[b] = a;
    if (rank_[a] == rank_[b])
      ++rank_[a];
    return true;
  }

private:
  std::vector<VertexId> parent_;
  std::vector<std::uint8_t> rank_;  // <= log2(2^32) = 32
};

} // namespace dd::graph

#endif // DD_GRAPH_DISJOINT_SETS_H
