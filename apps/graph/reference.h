// CPU reference algorithms, the ground truth GPU results are compared with.
// They favour obvious correctness over speed (but are fast enough for graphs
// of hundreds of millions of edges).
#ifndef DD_GRAPH_REFERENCE_H
#define DD_GRAPH_REFERENCE_H

#include <cstdint>
#include <limits>
#include <vector>

#include "graph/csr.h"
#include "graph/errors.h"

namespace dd::graph {

/// The distance of a vertex the source cannot reach.
inline constexpr std::uint64_t kInfDistance = std::numeric_limits<std::uint64_t>::max();
/// The BFS level of a vertex the source cannot reach.
inline constexpr std::uint32_t kUnreachedLevel = std::numeric_limits<std::uint32_t>::max();

/// Single-source shortest paths by Dijkstra's algorithm with a binary heap
/// (lazy deletion: O((V + E) log E)).
///
/// @param graph   int32 weights (must be non-negative), or unweighted (every
///                edge weighs 1); float weights are an error (dijkstra_float)
/// @param source  < graph.num_vertices()
/// @return        one distance per vertex: the sum of weights along a shortest
///                path (64-bit, cannot overflow: paths have < 2^32 edges of
///                < 2^31 each), kInfDistance when unreachable
Expected<std::vector<std::uint64_t>> dijkstra(const Csr& graph, VertexId source);

/// Dijkstra on float weights (non-negative), summed in double; +infinity when
/// unreachable. Int32 weights are accepted too (converted).
Expected<std::vector<double>> dijkstra_float(const Csr& graph, VertexId source);

/// Breadth-first search levels: 0 for the source, kUnreachedLevel when
/// unreachable. Weights are ignored.
Expected<std::vector<std::uint32_t>> bfs(const Csr& graph, VertexId source);

} // namespace dd::graph

#endif // DD_GRAPH_REFERENCE_H
