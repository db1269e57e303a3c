// CPU minimum spanning forest: Kruskal's algorithm as the reference, and a
// check that a forest (from any program, the GPU Boruvka included) spans the
// graph. A GPU result is correct when verify_spanning_forest() accepts it and
// the weight it returns equals kruskal_mst()'s: every minimum spanning forest
// has the same total weight, even where ties make the edges differ.
//
// The graph is read as undirected. A Csr stores directed out-edges, so the
// MST symmetrizes it: the edges u -> v and v -> u are both the undirected
// edge {u, v}, whichever of them the file lists (a symmetric file lists both,
// a directed one may list one). Parallel copies of {u, v} (duplicates, or the
// two directions with different weights) are one edge of the lightest weight;
// self loops are ignored.
//
// Weights: int32 as stored (non-negative, csr.h); an unweighted graph weighs
// 1 per edge, so its forest weighs num_vertices - num_trees. Float weights are
// an error: the total is compared exactly, which float sums do not allow.
// Totals are uint64: a forest has fewer than 2^32 edges of less than 2^31.
//
// Messages name vertices by their 0-based ids in the Csr (dd-graph prints
// the same ids) and candidate edges by their 0-based position in the list.
#ifndef DD_GRAPH_MST_H
#define DD_GRAPH_MST_H

#include <cstdint>
#include <vector>

#include "graph/csr.h"
#include "graph/errors.h"

namespace dd::graph {

/// An undirected edge of a spanning forest. kruskal_mst() gives u < v;
/// verify_spanning_forest() takes either order.
struct MstEdge {
  VertexId u = 0;
  VertexId v = 0;
  std::int32_t weight = 0;
};

inline bool operator==(const MstEdge& a, const MstEdge& b) {
  return a.u == b.u && a.v == b.v && a.weight == b.weight;
}

struct SpanningForest {
  /// The sum of the edges' weights.
  std::uint64_t weight = 0;
  /// Trees of the forest = connected components of the graph, isolated
  /// vertices included (num_vertices - edges.size()).
  std::uint64_t num_trees = 0;
  /// The chosen edges, u < v, in the order Kruskal took them: by weight,
  /// then u, then v (deterministic).
  std::vector<MstEdge> edges;
};

/// A minimum spanning forest by Kruskal's algorithm: the edges sorted by
/// (weight, min endpoint, max endpoint), joined with union-find (path
/// compression, union by rank). O(E log E) time, 12 bytes per edge.
/// Errors on an invalid graph or float weights.
Expected<SpanningForest> kruskal_mst(const Csr& graph);

/// The number of connected components of `graph` read as undirected
/// (isolated vertices count as one each).
std::uint64_t count_components(const Csr& graph);

/// Checks that `edges` is a spanning forest of `graph` (read as undirected,
/// as above) and returns its total weight; the caller compares it with
/// kruskal_mst()'s to know it is minimum. In order, the first failure found:
///  - an endpoint out of range, or a self loop;
///  - no edge between u and v in the graph (either direction), or none of
///    that weight (the message gives the lightest one there is);
///  - an edge closing a cycle with earlier edges of the list (a repeated
///    edge is such a cycle);
///  - fewer edges than a spanning forest needs: the message names a graph
///    edge whose endpoints lie in different trees, and counts trees and
///    components.
/// Parallel graph edges of several weights accept any of those weights.
/// O(E log V) time, O(V) memory besides the graph.
Expected<std::uint64_t> verify_spanning_forest(const Csr& graph,
                                               const std::vector<MstEdge>& edges);

} // namespace dd::graph

#endif // DD_GRAPH_MST_H
