// Coordinate (COO) edge lists and their conversion to CSR.
//
// Readers of text formats and the generators collect edges here, then call
// build_csr(). The conversion is a stable counting sort by source, so the
// out-edges of a vertex keep the order in which they were added: a file read
// twice, or a generator run twice with one seed, gives the identical Csr.
// Self loops and duplicate edges are kept (see docs/graphs.md).
#ifndef DD_GRAPH_EDGE_LIST_H
#define DD_GRAPH_EDGE_LIST_H

#include <cstdint>
#include <vector>

#include "graph/csr.h"
#include "graph/errors.h"

namespace dd::graph {

/// Edges as parallel arrays (structure of arrays, as the CSR is).
struct EdgeList {
  std::vector<VertexId> sources;
  std::vector<VertexId> destinations;
  WeightType weight_type = WeightType::kNone;
  std::vector<std::int32_t> int_weights;  ///< one per edge iff kInt32
  std::vector<float> float_weights;       ///< one per edge iff kFloat32

  std::uint64_t size() const { return sources.size(); }
  void reserve(std::uint64_t n) {
    sources.reserve(n);
    destinations.reserve(n);
  }
  /// Appends an unweighted edge (weight_type must be kNone).
  void add(VertexId u, VertexId v) {
    sources.push_back(u);
    destinations.push_back(v);
  }
};

/// Builds a CSR with `num_vertices` vertices from `edges`.
///
/// @param edges         every id must be < num_vertices (else an error)
/// @param num_vertices  at most kMaxVertices
/// @param symmetrize    also add (v, u) with the same weight for every edge
///                      (u, v) with u != v, placed as if right after it; self
///                      loops are not doubled. Use it for undirected inputs.
Expected<Csr> build_csr(const EdgeList& edges, std::uint64_t num_vertices, bool symmetrize);

/// The edges of `graph` in CSR order (sources expanded from the offsets).
EdgeList to_edge_list(const Csr& graph);

/// `graph` with (v, u) added after every edge (u, v), u != v, keeping weights:
/// build_csr(to_edge_list(graph), n, true).
Expected<Csr> symmetrize(const Csr& graph);

} // namespace dd::graph

#endif // DD_GRAPH_EDGE_LIST_H
