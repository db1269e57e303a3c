// Input meshes for DMR: random points in the unit square triangulated on the
// CPU (Delaunay, Bowyer-Watson), the kind of input the morph paper's
// randomly generated meshes are (about half of the triangles bad at 30
// degrees).
//
// Points lie on a lattice of 2^20 x 2^20 cells scaled into [0, 1]^2 (exact
// doubles), so the triangulator decides orientation and in-circle tests
// exactly in integer arithmetic: the input is exactly Delaunay whatever the
// number of points, and the same on every machine for the same seed.
#ifndef DD_DMR_TRIANGULATE_H
#define DD_DMR_TRIANGULATE_H

#include <cstdint>

#include "dmr/mesh.h"
#include "graph/errors.h"

namespace dd::dmr {

/// The most interior points random_square_mesh takes: beyond it the
/// triangles' vertex slots (3 per triangle) outgrow 32-bit indices, long
/// before the lattice's (2^20 - 1)^2 interior points run out.
inline constexpr std::int64_t kMaxRandomPoints = (INT32_MAX / 3 - 2) / 2;

/// The unit square's four corners and `interior` distinct random lattice
/// points strictly inside it (seeded; deterministic), triangulated:
/// 2 * (interior + 4) - 6 triangles, the domain's boundary being the
/// square's four sides. Points 0-3 are the corners counter-clockwise from
/// the origin, the others follow in the order of a Hilbert curve (the
/// insertion order; neighbours in the mesh are near in memory too). Errors
/// for a negative count, one above kMaxRandomPoints, or one whose mesh
/// would not fit in memory.
graph::Expected<Mesh> random_square_mesh(std::int64_t interior, std::uint64_t seed);

} // namespace dd::dmr

#endif // DD_DMR_TRIANGULATE_H
