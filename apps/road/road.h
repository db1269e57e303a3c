// Road-like networks for shortest-path benchmarks, shaped like the DIMACS
// USA-road-d graphs (9th DIMACS Implementation Challenge): planar, sparse
// (2.44 arcs per vertex in USA-road-d.USA: 58,333,344 arcs over 23,947,347
// vertices), high diameter, every road two-way, lengths as weights, and ids
// with spatial locality. docs/graphs.md ("Road networks") has the
// construction and how the result compares with real road graphs.
//
//   Csr g = *dd::road::generate_road({.num_vertices = 1 << 20});
//
// The construction: random points on the 2^20 x 2^20 lattice of the unit
// square (the DMR triangulator's, dmr/triangulate.h, with the square's four
// corners), their Delaunay triangulation, its Euclidean minimum spanning
// tree (every vertex reached, no shortcuts), and then Delaunay edges outside
// the tree, no longer than its longest edge, drawn at random until the mean
// degree is reached (the local loops of a street network; the length bound
// leaves out the square's sides and the slivers along them). Weights are the edges' lengths in lattice units,
// rounded, at least 1.
#ifndef DD_ROAD_ROAD_H
#define DD_ROAD_ROAD_H

#include <cstdint>

#include "graph/csr.h"
#include "graph/errors.h"

namespace dd::road {

/// Arcs per vertex of USA-road-d.USA (rounded), the default mean degree.
inline constexpr double kUsaRoadMeanDegree = 2.44;

struct RoadParams {
  /// Vertices, at least 4 (the square's corners are four of them).
  std::uint64_t num_vertices = 1 << 16;
  /// Arcs per vertex (each road is two arcs), in [2, 5]: the tree's n - 1
  /// roads and round((mean_degree - 2) n / 2) more, so 2 is the tree alone.
  /// A Delaunay triangulation has about 3n edges, so 5 leaves room to
  /// choose from.
  double mean_degree = kUsaRoadMeanDegree;
  std::uint64_t seed = 1;
};

/// A road-like network, undirected (both arcs of every road), connected,
/// no self loops or parallel roads, rows sorted by neighbour id, int32
/// weights. Deterministic for its parameters on every platform. Errors for
/// parameters out of range or a size beyond memory.
graph::Expected<graph::Csr> generate_road(const RoadParams &params);

} // namespace dd::road

#endif // DD_ROAD_ROAD_H
