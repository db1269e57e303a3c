// A 2-D triangle mesh on the host: points, counter-clockwise triangles and
// their neighbours, in the flat layout of cavity.h's MeshView (which the GPU
// variants copy as is), and the checks every input and output goes through.
#ifndef DD_DMR_MESH_H
#define DD_DMR_MESH_H

#include <cstdint>
#include <string>
#include <vector>

#include "dmr/cavity.h"
#include "graph/errors.h"

namespace dd::dmr {

/// Points, triangles (3 vertex indices each, counter-clockwise; a slot whose
/// first vertex is negative is free) and neighbours (3 per triangle: across
/// the edge opposite each vertex, -1 on the boundary of the domain).
struct Mesh {
  std::vector<double> x, y;
  std::vector<std::int32_t> v;
  std::vector<std::int32_t> n;

  std::int64_t num_points() const { return static_cast<std::int64_t>(x.size()); }
  /// Slots, free ones included.
  std::int64_t num_slots() const { return static_cast<std::int64_t>(v.size() / 3); }
  /// Live triangles.
  std::int64_t num_triangles() const;
  /// A view of the arrays (valid until they are resized).
  MeshView view() {
    return MeshView{x.data(), y.data(), v.data(), n.data()};
  }
};

/// Fills m.n from m.v: two triangles are neighbours when they share an edge
/// in opposite directions. Errors for an edge used by three or more
/// triangles or twice in the same direction (not a manifold, or an
/// inconsistent orientation), a vertex index out of range and a triangle
/// that repeats a vertex; `what` names the input in the message, and
/// triangles and points are numbered from `first_number` there (1 for a
/// 1-based file, so that the numbers are the file's).
graph::Status build_neighbors(Mesh &m, const std::string &what, std::int64_t first_number = 0);

/// build_neighbors on bare arrays: the neighbours of the triangles `v` (free
/// slots included, whose neighbours are left -1) over `num_points` points,
/// into `n`. check_triangulation compares a mesh's own n with it.
graph::Status compute_neighbors(const std::vector<std::int32_t> &v, std::int64_t num_points,
                                std::vector<std::int32_t> &n, const std::string &what,
                                std::int64_t first_number = 0);

/// Drops free slots (renumbering triangles and neighbours) and points no
/// triangle uses after the first `keep_points` (which keep their indices: the
/// input's points stay first, in order).
void compact(Mesh &m, std::int64_t keep_points);

/// Counts of live triangles whose smallest angle is below the bound
/// (cos2_min: the squared cosine of that angle; 0.75 for 30 degrees).
std::int64_t count_bad(const Mesh &m, double cos2_min);

/// The squared cosine of `degrees` (what is_bad() takes).
double cos2_of_degrees(double degrees);

} // namespace dd::dmr

#endif // DD_DMR_MESH_H
