// One refinement step of Delaunay mesh refinement (Chew/Ruppert style), shared
// by the CPU reference and both GPU variants so that they differ only in how
// a step gets exclusive access to its triangles (docs/dmr.md).
//
// A step takes a bad triangle t, finds the point to insert (its circumcenter,
// or the midpoint of a boundary edge the circumcenter lies beyond or
// encroaches), collects the cavity (the triangles whose circumcircle holds
// the point, connected, Bowyer-Watson) and replaces it by a fan of new
// triangles around the point.
//
// Every triangle is read only after `visit(t)` returned true, so a caller can
// take ownership of what it reads: the CPU reference returns true, the
// atomic GPU variant takes a lock, the atomic-free variant records the
// triangle for its race and check phases. A step that read only owned
// triangles writes only owned triangles (the cavity and the triangles just
// outside it) plus the fresh slots and point the caller hands it.
//
// Plain C++17 that nvcc also compiles for the device; no allocation, fixed
// bounds (kMaxCavity) so that a GPU thread keeps a cavity in registers and
// local memory.
#ifndef DD_DMR_CAVITY_H
#define DD_DMR_CAVITY_H

#include <cstdint>

#ifdef __CUDACC__
#define DD_DMR_HD __host__ __device__ inline
#else
#define DD_DMR_HD inline
#endif

namespace dd::dmr {

/// Triangles a cavity may hold. Delaunay cavities of circumcenters hold 4-12
/// (the morph paper: at most 12 on its meshes); a larger one is refused as
/// kTooBig and counted, never truncated.
inline constexpr int kMaxCavity = 48;
/// Boundary edges of a cavity: a disk of m triangles without interior
/// vertices has m + 2.
inline constexpr int kMaxCavityEdges = kMaxCavity + 2;
/// Triangles a point-location walk may cross before it is declared stuck.
inline constexpr int kMaxWalk = 4096;

/// A view of a mesh in flat arrays (host or device memory).
///
/// Triangle t has vertices v[3t], v[3t+1], v[3t+2] in counter-clockwise
/// order; v[3t] < 0 marks a free slot. n[3t+i] is the triangle across the
/// edge opposite v[3t+i] (from v[3t+(i+1)%3] to v[3t+(i+2)%3]), or -1 where
/// that edge is on the boundary of the domain.
struct MeshView {
  double *x = nullptr;
  double *y = nullptr;
  std::int32_t *v = nullptr;
  std::int32_t *n = nullptr;
};

struct Point {
  double x, y;
};

DD_DMR_HD Point point_of(const MeshView &m, std::int32_t i) { return {m.x[i], m.y[i]}; }

/// Twice the signed area of (a, b, c): > 0 when counter-clockwise.
DD_DMR_HD double orient2d(Point a, Point b, Point c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/// > 0 when d lies inside the circle through the counter-clockwise a, b, c.
DD_DMR_HD double incircle(Point a, Point b, Point c, Point d) {
  const double adx = a.x - d.x, ady = a.y - d.y;
  const double bdx = b.x - d.x, bdy = b.y - d.y;
  const double cdx = c.x - d.x, cdy = c.y - d.y;
  const double alift = adx * adx + ady * ady;
  const double blift = bdx * bdx + bdy * bdy;
  const double clift = cdx * cdx + cdy * cdy;
  return alift * (bdx * cdy - bdy * cdx) + blift * (cdx * ady - cdy * adx) +
         clift * (adx * bdy - ady * bdx);
}

/// The center of the circle through a, b, c (not collinear).
DD_DMR_HD Point circumcenter(Point a, Point b, Point c) {
  const double bx = b.x - a.x, by = b.y - a.y;
  const double cx = c.x - a.x, cy = c.y - a.y;
  const double b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
  const double d = 2.0 * (bx * cy - by * cx);
  return {a.x + (cy * b2 - by * c2) / d, a.y + (bx * c2 - cx * b2) / d};
}

/// True when the smallest angle of (a, b, c) is below the angle whose squared
/// cosine is `cos2_min` (0.75 for 30 degrees). The smallest angle lies
/// opposite the shortest edge, and is below the bound when its cosine
/// (q + r - p) / (2 sqrt(q r)) exceeds cos(min), p <= q, r the squared edge
/// lengths; squared to stay free of roots (the left side is positive for an
/// angle of at most 60 degrees).
DD_DMR_HD bool is_bad(Point a, Point b, Point c, double cos2_min) {
  const double ab = (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
  const double bc = (b.x - c.x) * (b.x - c.x) + (b.y - c.y) * (b.y - c.y);
  const double ca = (c.x - a.x) * (c.x - a.x) + (c.y - a.y) * (c.y - a.y);
  double p = ab, q = bc, r = ca;  // p: the shortest
  if (q < p) { const double t = p; p = q; q = t; }
  if (r < p) { const double t = p; p = r; r = t; }
  const double num = q + r - p;
  return num > 0 && num * num > 4.0 * cos2_min * q * r;
}

/// True when c lies strictly inside the circle with diameter (a, b): the
/// boundary edge (a, b) is encroached (Ruppert).
DD_DMR_HD bool encroaches(Point a, Point b, Point c) {
  return (a.x - c.x) * (b.x - c.x) + (a.y - c.y) * (b.y - c.y) < 0;
}

/// Whether triangle t (a live slot) is bad.
DD_DMR_HD bool triangle_is_bad(const MeshView &m, std::int32_t t, double cos2_min) {
  const std::int32_t *tv = m.v + 3 * t;
  return is_bad(point_of(m, tv[0]), point_of(m, tv[1]), point_of(m, tv[2]), cos2_min);
}

/// The visitor of a step that owns everything it may read (the CPU
/// reference, a GPU serial round).
struct VisitAll {
  DD_DMR_HD bool operator()(std::int32_t) const { return true; }
};

/// What build_cavity found.
enum class CavityStatus : std::uint8_t {
  kOk,         ///< A cavity ready for retriangulate().
  kGone,       ///< The triangle is a free slot or no longer bad: nothing to do.
  kConflict,   ///< visit() refused a triangle: another step owns it.
  kTooBig,     ///< More than kMaxCavity triangles.
  kDegenerate  ///< Rounding: a stuck walk, a point on a vertex, no star shape.
};

/// A cavity and the point that replaces it.
struct Cavity {
  Point p;
  /// The boundary edge being split (its triangle and the index of the vertex
  /// opposite it), or split_tri == -1 when p is a circumcenter.
  std::int32_t split_tri;
  std::int32_t split_edge;
  std::int32_t ntris;
  std::int32_t tris[kMaxCavity];
  /// Boundary edges of the cavity, counter-clockwise seen from inside: from
  /// ea to eb, the triangle outside (-1: the domain's boundary) and the index
  /// of the edge in that triangle. The split edge is not among them.
  std::int32_t nedges;
  std::int32_t ea[kMaxCavityEdges];
  std::int32_t eb[kMaxCavityEdges];
  std::int32_t eout[kMaxCavityEdges];
  std::int32_t eout_idx[kMaxCavityEdges];
};

namespace detail {

DD_DMR_HD bool in_cavity(const Cavity &c, std::int32_t t) {
  for (std::int32_t i = 0; i < c.ntris; ++i)
    if (c.tris[i] == t)
      return true;
  return false;
}

/// The index j with n[3 out + j] == t.
DD_DMR_HD std::int32_t edge_index(const MeshView &m, std::int32_t out, std::int32_t t) {
  for (std::int32_t j = 0; j < 3; ++j)
    if (m.n[3 * out + j] == t)
      return j;
  return -1;
}

/// The boundary edges of c.tris; false when there are too many (or the
/// neighbours are not symmetric). Reads only the cavity and the triangles
/// next to it (all visited).
DD_DMR_HD bool collect_edges(const MeshView &m, Cavity &c) {
  c.nedges = 0;
  for (std::int32_t k = 0; k < c.ntris; ++k) {
    const std::int32_t t = c.tris[k];
    for (std::int32_t i = 0; i < 3; ++i) {
      if (t == c.split_tri && i == c.split_edge)
        continue;
      const std::int32_t nb = m.n[3 * t + i];
      if (nb >= 0 && in_cavity(c, nb))
        continue;
      if (c.nedges == kMaxCavityEdges)
        return false;
      const std::int32_t e = c.nedges++;
      c.ea[e] = m.v[3 * t + (i + 1) % 3];
      c.eb[e] = m.v[3 * t + (i + 2) % 3];
      c.eout[e] = nb;
      c.eout_idx[e] = nb >= 0 ? edge_index(m, nb, t) : -1;
      // Asymmetric neighbours (a broken mesh, never one this code built):
      // refuse rather than write through index -1.
      if (nb >= 0 && c.eout_idx[e] < 0)
        return false;
    }
  }
  return true;
}

/// Grows the cavity of c.p from c.tris[0] (already visited and inside), then
/// makes it star-shaped from c.p: an edge that would give a new triangle of
/// no positive area pulls the triangle behind it in, which only rounding in
/// incircle() can make necessary.
template <typename Visit>
DD_DMR_HD CavityStatus grow(const MeshView &m, Cavity &c, Visit &visit, bool *encroached_tri,
                            std::int32_t *enc_t, std::int32_t *enc_i) {
  *encroached_tri = false;
  for (std::int32_t q = 0; q < c.ntris; ++q) {
    const std::int32_t t = c.tris[q];
    for (std::int32_t i = 0; i < 3; ++i) {
      if (t == c.split_tri && i == c.split_edge)
        continue;
      const std::int32_t nb = m.n[3 * t + i];
      if (nb < 0) {
        // A boundary edge: a circumcenter inside its diametral circle splits
        // it instead (Ruppert); a boundary midpoint never does.
        if (c.split_tri < 0 &&
            encroaches(point_of(m, m.v[3 * t + (i + 1) % 3]), point_of(m, m.v[3 * t + (i + 2) % 3]),
                       c.p)) {
          *encroached_tri = true;
          *enc_t = t;
          *enc_i = i;
          return CavityStatus::kOk;
        }
        continue;
      }
      if (in_cavity(c, nb))
        continue;
      if (!visit(nb))
        return CavityStatus::kConflict;
      const std::int32_t *nv = m.v + 3 * nb;
      if (incircle(point_of(m, nv[0]), point_of(m, nv[1]), point_of(m, nv[2]), c.p) > 0) {
        if (c.ntris == kMaxCavity)
          return CavityStatus::kTooBig;
        c.tris[c.ntris++] = nb;
      }
    }
  }
  // Star shape: every new triangle (ea, eb, p) counter-clockwise.
  for (std::int32_t round = 0; round < kMaxCavity; ++round) {
    if (!collect_edges(m, c))
      return c.nedges == kMaxCavityEdges ? CavityStatus::kTooBig : CavityStatus::kDegenerate;
    std::int32_t bad_edge = -1;
    for (std::int32_t e = 0; e < c.nedges && bad_edge < 0; ++e)
      if (!(orient2d(point_of(m, c.ea[e]), point_of(m, c.eb[e]), c.p) > 0))
        bad_edge = e;
    if (bad_edge < 0)
      break;
    const std::int32_t out = c.eout[bad_edge];
    if (out < 0)
      return CavityStatus::kDegenerate;
    if (!visit(out))
      return CavityStatus::kConflict;
    if (c.ntris == kMaxCavity)
      return CavityStatus::kTooBig;
    c.tris[c.ntris++] = out;
    // Its other neighbours are now next to the cavity: visit them before
    // collect_edges reads them.
    for (std::int32_t i = 0; i < 3; ++i) {
      const std::int32_t nb = m.n[3 * out + i];
      if (nb >= 0 && !in_cavity(c, nb) && !visit(nb))
        return CavityStatus::kConflict;
    }
  }
  // A disk of m triangles with every vertex on its boundary has m + 2
  // boundary edges (m + 1 without the split edge); anything else would drop
  // a vertex of the mesh or is not a disk.
  const std::int32_t want = c.ntris + (c.split_tri < 0 ? 2 : 1);
  if (c.nedges != want)
    return CavityStatus::kDegenerate;
  // The point may not coincide with a vertex of the cavity.
  for (std::int32_t e = 0; e < c.nedges; ++e) {
    const Point a = point_of(m, c.ea[e]);
    if (a.x == c.p.x && a.y == c.p.y)
      return CavityStatus::kDegenerate;
  }
  return CavityStatus::kOk;
}

/// The cavity of the midpoint of boundary edge i of triangle t (visited).
template <typename Visit>
DD_DMR_HD CavityStatus split_cavity(const MeshView &m, std::int32_t t, std::int32_t i, Cavity &c,
                                    Visit &visit) {
  const Point a = point_of(m, m.v[3 * t + (i + 1) % 3]);
  const Point b = point_of(m, m.v[3 * t + (i + 2) % 3]);
  c.p = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y)};
  c.split_tri = t;
  c.split_edge = i;
  c.ntris = 1;
  c.tris[0] = t;
  bool encroached;
  std::int32_t et, ei;
  return grow(m, c, visit, &encroached, &et, &ei);
}

} // namespace detail

/// Finds the cavity that fixes bad triangle t. `visit(t)` is called before
/// any triangle is read; when it returns false the step stops with
/// kConflict. `cos2_min` is the squared cosine of the smallest angle allowed.
template <typename Visit>
DD_DMR_HD CavityStatus build_cavity(const MeshView &m, std::int32_t t, double cos2_min,
                                    Visit &visit, Cavity &c) {
  if (!visit(t))
    return CavityStatus::kConflict;
  if (m.v[3 * t] < 0 || !triangle_is_bad(m, t, cos2_min))
    return CavityStatus::kGone;
  const std::int32_t *tv = m.v + 3 * t;
  const Point center = circumcenter(point_of(m, tv[0]), point_of(m, tv[1]), point_of(m, tv[2]));

  // Walk from t towards the circumcenter; leaving the domain through a
  // boundary edge splits that edge.
  std::int32_t cur = t;
  for (std::int32_t step = 0;; ++step) {
    if (step == kMaxWalk)
      return CavityStatus::kDegenerate;
    std::int32_t cross = -1;
    for (std::int32_t i = 0; i < 3 && cross < 0; ++i) {
      const Point a = point_of(m, m.v[3 * cur + (i + 1) % 3]);
      const Point b = point_of(m, m.v[3 * cur + (i + 2) % 3]);
      if (orient2d(a, b, center) < 0)
        cross = i;
    }
    if (cross < 0)
      break;
    const std::int32_t next = m.n[3 * cur + cross];
    if (next < 0)
      return detail::split_cavity(m, cur, cross, c, visit);
    if (!visit(next))
      return CavityStatus::kConflict;
    cur = next;
  }

  c.p = center;
  c.split_tri = -1;
  c.split_edge = -1;
  c.ntris = 1;
  c.tris[0] = cur;
  bool encroached;
  std::int32_t et = -1, ei = -1;
  const CavityStatus s = detail::grow(m, c, visit, &encroached, &et, &ei);
  if (s != CavityStatus::kOk || !encroached)
    return s;
  return detail::split_cavity(m, et, ei, c, visit);
}

/// Triangles retriangulate() needs beyond the cavity's own slots: 2 for a
/// circumcenter, 1 for a split boundary edge.
DD_DMR_HD std::int32_t extra_slots(const Cavity &c) { return c.split_tri < 0 ? 2 : 1; }

/// Replaces the cavity by the fan around point `pidx` (whose coordinates it
/// writes), reusing the cavity's slots and then `fresh[0..extra_slots(c))`.
/// Writes the new triangles' slots to `out` (c.nedges of them) and updates
/// the neighbours outside the cavity.
DD_DMR_HD void retriangulate(const MeshView &m, const Cavity &c, std::int32_t pidx,
                             const std::int32_t *fresh, std::int32_t *out) {
  m.x[pidx] = c.p.x;
  m.y[pidx] = c.p.y;
  const std::int32_t k = c.nedges;
  for (std::int32_t e = 0; e < k; ++e)
    out[e] = e < c.ntris ? c.tris[e] : fresh[e - c.ntris];
  for (std::int32_t e = 0; e < k; ++e) {
    const std::int32_t s = out[e];
    // Neighbours around p: across (eb, p) the fan triangle whose edge starts
    // at eb; across (p, ea) the one whose edge ends at ea; -1 where the
    // split edge was (the new boundary edges p-a and b-p).
    std::int32_t after = -1, before = -1;
    for (std::int32_t f = 0; f < k; ++f) {
      if (c.ea[f] == c.eb[e])
        after = out[f];
      if (c.eb[f] == c.ea[e])
        before = out[f];
    }
    m.v[3 * s + 0] = c.ea[e];
    m.v[3 * s + 1] = c.eb[e];
    m.v[3 * s + 2] = pidx;
    m.n[3 * s + 0] = after;
    m.n[3 * s + 1] = before;
    m.n[3 * s + 2] = c.eout[e];
    if (c.eout[e] >= 0)
      m.n[3 * c.eout[e] + c.eout_idx[e]] = s;
  }
}

} // namespace dd::dmr

#endif // DD_DMR_CAVITY_H
