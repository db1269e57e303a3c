// --verify's checks (verify.h).
#include "dmr/verify.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace dd::dmr {
namespace {

using graph::Expected;
using graph::Status;
using graph::str_cat;

constexpr double kCoverTolerance = 1e-9;
constexpr double kDegreesPerRadian = 57.295779513082320876798154814105;

std::string num(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

Point point(const Mesh &m, std::int32_t p) { return {m.x[p], m.y[p]}; }

// "point 7 (0.5, 0.25)".
std::string point_text(const Mesh &m, std::int32_t p) {
  return str_cat("point ", p, " (", num(m.x[p]), ", ", num(m.y[p]), ")");
}

// "triangle 3 (point 1 (..), point 4 (..), point 2 (..))".
std::string triangle_text(const Mesh &m, std::int64_t t) {
  return str_cat("triangle ", t, " (", point_text(m, m.v[3 * t]), ", ",
                 point_text(m, m.v[3 * t + 1]), ", ", point_text(m, m.v[3 * t + 2]), ")");
}

// Neumaier's compensated sum: the area of millions of triangles stays
// accurate far beyond the 1e-9 compared.
struct Sum {
  double sum = 0, compensation = 0;
  void add(double x) {
    const double t = sum + x;
    compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  double value() const { return sum + compensation; }
};

double length2(Point a, Point b) { return (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y); }
// Plain sqrt, not hypot (several times faster): coordinates that would
// overflow the squares overflow orient2d and incircle first.
double length(Point a, Point b) { return std::sqrt(length2(a, b)); }

// The area and the boundary length of m's live triangles.
void measure(const Mesh &m, double &area, double &boundary) {
  Sum a, b;
  for (std::int64_t t = 0; t < m.num_slots(); ++t) {
    if (m.v[3 * t] < 0)
      continue;
    const std::int32_t *tv = m.v.data() + 3 * t;
    a.add(0.5 * orient2d(point(m, tv[0]), point(m, tv[1]), point(m, tv[2])));
    for (int i = 0; i < 3; ++i)
      if (m.n[3 * t + i] < 0)
        b.add(length(point(m, tv[(i + 1) % 3]), point(m, tv[(i + 2) % 3])));
  }
  area = a.value();
  boundary = b.value();
}

// The smallest angle of (a, b, c) in degrees: the one opposite the
// shortest edge (atan2 keeps small angles accurate where acos would not).
double min_angle(Point a, Point b, Point c) {
  const double ab = length2(a, b), bc = length2(b, c), ca = length2(c, a);
  // The vertex opposite the shortest edge, and the other two.
  const Point o = bc <= ab && bc <= ca ? a : ca <= ab ? b : c;
  const Point u = bc <= ab && bc <= ca ? b : ca <= ab ? c : a;
  const Point w = bc <= ab && bc <= ca ? c : ca <= ab ? a : b;
  const double ux = u.x - o.x, uy = u.y - o.y, wx = w.x - o.x, wy = w.y - o.y;
  return std::atan2(std::fabs(ux * wy - uy * wx), ux * wx + uy * wy) * kDegreesPerRadian;
}

// incircle(a, b, c, d) relative to the circle's scale (verify.h): the
// determinant is orient2d(a, b, c) (R^2 - |d - o|^2) = |ab| |bc| |ca|
// (R^2 - |d - o|^2) / 2R, so dividing by |ab| |bc| |ca| and d's largest
// distance to a, b, c leaves about how deep d lies inside the circle in
// units of the triangles' size: the same for the mesh scaled or moved.
double relative_incircle(Point a, Point b, Point c, Point d) {
  const double scale = std::sqrt(length2(a, b) * length2(b, c)) * length(c, a) *
                       std::sqrt(std::max({length2(a, d), length2(b, d), length2(c, d)}));
  return incircle(a, b, c, d) / scale;
}

bool same_bits(double a, double b) { return a == b && std::signbit(a) == std::signbit(b); }

} // namespace

Status check_triangulation(const Mesh &m, const std::string &what) {
  if (m.x.size() != m.y.size())
    return Status::error(
        str_cat(what, ": ", m.x.size(), " x coordinates but ", m.y.size(), " y coordinates"));
  if (m.v.size() % 3 != 0 || m.n.size() != m.v.size())
    return Status::error(str_cat(what, ": ", m.v.size(), " vertex and ", m.n.size(),
                                 " neighbour slots, not 3 per triangle each"));
  const std::int64_t slots = m.num_slots(), points = m.num_points();
  for (std::int64_t t = 0; t < slots; ++t) {
    const std::int32_t *tv = m.v.data() + 3 * t;
    if (tv[0] < 0)
      continue;
    for (int k = 0; k < 3; ++k)
      if (tv[k] < 0 || tv[k] >= points)
        return Status::error(str_cat(what, ": triangle ", t, ": point ", tv[k],
                                     " is out of range [0, ", points - 1, "]"));
    const double o = orient2d(point(m, tv[0]), point(m, tv[1]), point(m, tv[2]));
    if (!(o > 0))
      return Status::error(str_cat(what, ": ", triangle_text(m, t),
                                   o == 0 ? " has zero area" : " is not counter-clockwise",
                                   " (orient2d = ", num(o), ")"));
    for (int i = 0; i < 3; ++i) {
      const std::int32_t nb = m.n[3 * t + i];
      if (nb < -1 || nb >= slots || (nb >= 0 && m.v[3 * nb] < 0) || nb == t)
        return Status::error(str_cat(what, ": triangle ", t, ": its neighbour ", nb,
                                     " across the edge from point ", tv[(i + 1) % 3], " to point ",
                                     tv[(i + 2) % 3], " is ",
                                     nb == t                 ? "itself"
                                     : nb >= 0 && nb < slots ? "a free slot"
                                                             : "not a triangle"));
    }
  }
  // The neighbours the vertices imply (which also finds an edge of three
  // triangles or two in one direction): m.n must be exactly those, which
  // makes it symmetric.
  std::vector<std::int32_t> expect;
  if (Status s = compute_neighbors(m.v, points, expect, what); !s.ok())
    return s;
  for (std::int64_t t = 0; t < slots; ++t) {
    if (m.v[3 * t] < 0)
      continue;
    for (int i = 0; i < 3; ++i) {
      const std::int32_t have = m.n[3 * t + i], want = expect[3 * t + i];
      if (have == want)
        continue;
      const std::string edge = str_cat("the edge from point ", m.v[3 * t + (i + 1) % 3],
                                       " to point ", m.v[3 * t + (i + 2) % 3]);
      if (want < 0)
        return Status::error(str_cat(what, ": triangle ", t, " has neighbour ", have, " across ",
                                     edge, ", but no triangle shares that edge"));
      if (have < 0)
        return Status::error(str_cat(what, ": triangle ", t, " has no neighbour across ", edge,
                                     ", but triangle ", want, " shares that edge"));
      return Status::error(str_cat(what, ": triangle ", t, " has neighbour ", have, " across ",
                                   edge, ", but triangle ", want, " shares that edge"));
    }
  }
  return Status();
}

Status check_delaunay(const Mesh &m, const std::string &what, double *worst) {
  // Across every interior edge, the far vertex is not inside the circle
  // (both sides of each edge are looked at).
  const std::int64_t slots = m.num_slots();
  double worst_value = -std::numeric_limits<double>::infinity();
  bool interior_edge = false;
  for (std::int64_t t = 0; t < slots; ++t) {
    const std::int32_t *tv = m.v.data() + 3 * t;
    if (tv[0] < 0)
      continue;
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = m.n[3 * t + i];
      if (u < 0)
        continue;
      const std::int32_t j = m.n[3 * u] == t ? 0 : m.n[3 * u + 1] == t ? 1 : 2;
      const std::int32_t d = m.v[3 * u + j];
      const double value =
          relative_incircle(point(m, tv[0]), point(m, tv[1]), point(m, tv[2]), point(m, d));
      interior_edge = true;
      worst_value = std::max(worst_value, value);
      if (value > kDelaunayTolerance)
        return Status::error(str_cat(what, ": not Delaunay: ", point_text(m, d), " of triangle ",
                                     u, " lies inside the circle of ", triangle_text(m, t),
                                     " (relative in-circle value ", num(value), " > ",
                                     num(kDelaunayTolerance), ")"));
    }
  }
  if (worst)
    *worst = interior_edge ? worst_value : 0;
  return Status();
}

Expected<VerifySummary> verify_refined(const Mesh &in, const Mesh &out, double cos2_min) {
  const std::string what = "refined mesh";
  if (Status s = check_triangulation(out, what); !s.ok())
    return s;
  const std::int64_t slots = out.num_slots();

  // The input covered: its points first, unmoved, each a vertex.
  if (out.num_points() < in.num_points())
    return Status::error(
        str_cat(what, ": ", out.num_points(), " points, fewer than the input's ", in.num_points()));
  std::vector<bool> used(static_cast<std::size_t>(out.num_points()), false);
  for (std::int64_t t = 0; t < slots; ++t)
    if (out.v[3 * t] >= 0)
      for (int k = 0; k < 3; ++k)
        used[out.v[3 * t + k]] = true;
  for (std::int32_t p = 0; p < in.num_points(); ++p) {
    if (!same_bits(out.x[p], in.x[p]) || !same_bits(out.y[p], in.y[p]))
      return Status::error(str_cat(what, ": input ", point_text(in, p), " is at (", num(out.x[p]),
                                   ", ", num(out.y[p]), ")"));
    if (!used[p])
      return Status::error(
          str_cat(what, ": input ", point_text(in, p), " is not a vertex of any triangle"));
  }
  double in_area, in_boundary, out_area, out_boundary;
  measure(in, in_area, in_boundary);
  measure(out, out_area, out_boundary);
  if (std::fabs(out_area - in_area) > kCoverTolerance * std::fabs(in_area))
    return Status::error(str_cat(what, ": area ", num(out_area), ", not the input's ", num(in_area),
                                 " (relative tolerance ", num(kCoverTolerance), ")"));
  if (std::fabs(out_boundary - in_boundary) > kCoverTolerance * in_boundary)
    return Status::error(str_cat(what, ": boundary length ", num(out_boundary),
                                 ", not the input's ", num(in_boundary), " (relative tolerance ",
                                 num(kCoverTolerance), ")"));

  VerifySummary summary;
  summary.points = out.num_points();
  if (Status s = check_delaunay(out, what, &summary.worst_delaunay); !s.ok())
    return s;

  // No bad triangle: is_bad's verdict, reported with the angle.
  const double bound =
      std::acos(std::sqrt(std::min(1.0, std::max(0.0, cos2_min)))) * kDegreesPerRadian;
  summary.min_angle_degrees = 180;
  for (std::int64_t t = 0; t < slots; ++t) {
    const std::int32_t *tv = out.v.data() + 3 * t;
    if (tv[0] < 0)
      continue;
    ++summary.triangles;
    const Point a = point(out, tv[0]), b = point(out, tv[1]), c = point(out, tv[2]);
    const double angle = min_angle(a, b, c);
    summary.min_angle_degrees = std::min(summary.min_angle_degrees, angle);
    if (is_bad(a, b, c, cos2_min)) {
      char text[64];
      std::snprintf(text, sizeof text, "%.4f degrees, below %.4f", angle, bound);
      return Status::error(
          str_cat(what, ": bad ", triangle_text(out, t), ": its smallest angle is ", text));
    }
  }
  if (summary.triangles == 0)
    summary.min_angle_degrees = 0;
  return summary;
}

} // namespace dd::dmr
