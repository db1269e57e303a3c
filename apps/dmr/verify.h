// --verify's checks of a refined mesh against its input (docs/dmr.md,
// "Verification"): a valid triangulation (counter-clockwise triangles,
// symmetric adjacency, a manifold), the Delaunay property within a stated
// floating-point tolerance, the input covered (every input point a vertex,
// the same area and boundary length), and no bad triangle left.
#ifndef DD_DMR_VERIFY_H
#define DD_DMR_VERIFY_H

#include <cstdint>
#include <optional>
#include <string>

#include "dmr/mesh.h"

namespace dd::dmr {

/// What verify_refined measured on a mesh that passed.
struct VerifySummary {
  std::int64_t triangles = 0;
  std::int64_t points = 0;
  double min_angle_degrees = 0;
  /// The largest in-circle value of a vertex against the circle of the
  /// triangle across an edge, relative to the circle's scale (<= tolerance).
  double worst_delaunay = 0;
};

/// Relative tolerance of the Delaunay check: incircle(a, b, c, d) /
/// (|ab| |bc| |ca| * max distance of d) must not exceed it.
inline constexpr double kDelaunayTolerance = 1e-9;

/// Checks `out` (compacted) against `in` at the bound cos2_min. The first
/// problem found, with the triangle and its vertices' coordinates, or the
/// summary.
graph::Expected<VerifySummary> verify_refined(const Mesh &in, const Mesh &out, double cos2_min);

/// The Delaunay check of verify_refined() alone (a valid triangulation
/// assumed): dd-dmr runs it on its input, since refinement by cavities is
/// only correct on a Delaunay mesh. `worst`, when given, gets the largest
/// relative in-circle value (0 without interior edges).
graph::Status check_delaunay(const Mesh &m, const std::string &what, double *worst = nullptr);

/// Only the triangulation checks (orientation, adjacency, manifold); used on
/// inputs too (an input need not be Delaunay-checked twice).
graph::Status check_triangulation(const Mesh &m, const std::string &what);

} // namespace dd::dmr

#endif // DD_DMR_VERIFY_H
