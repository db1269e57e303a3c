// The mesh's adjacency, compaction and counts (mesh.h).
#include "dmr/mesh.h"

#include <cmath>
#include <limits>

namespace dd::dmr {
namespace {

using graph::Status;
using graph::str_cat;

constexpr std::int64_t kMaxIndex = std::numeric_limits<std::int32_t>::max();

} // namespace

std::int64_t Mesh::num_triangles() const {
  std::int64_t live = 0;
  for (std::size_t s = 0; s < v.size(); s += 3)
    live += v[s] >= 0;
  return live;
}

Status compute_neighbors(const std::vector<std::int32_t> &v, std::int64_t num_points,
                         std::vector<std::int32_t> &n, const std::string &what,
                         std::int64_t first_number) {
  if (v.size() % 3 != 0)
    return Status::error(str_cat(what, ": ", v.size(), " vertex slots, not 3 per triangle"));
  // cavity.h indexes v with 3 * t in 32 bits.
  if (v.size() > static_cast<std::uint64_t>(kMaxIndex))
    return Status::error(str_cat(what, ": ", v.size() / 3, " triangles, more than the ",
                                 kMaxIndex / 3, " whose vertex slots 32-bit indices reach"));
  if (num_points > kMaxIndex)
    return Status::error(
        str_cat(what, ": ", num_points, " points, more than a 32-bit index names"));
  const std::int64_t slots = static_cast<std::int64_t>(v.size() / 3);
  const std::int64_t first = first_number;
  n.assign(v.size(), -1);

  // The star of every point: (triangle, corner) pairs as 3 t + corner, in a
  // CSR over the points. An edge a->b is then found among the few triangles
  // around a, with no hash table as large as the mesh.
  std::vector<std::uint32_t> offset(static_cast<std::size_t>(num_points) + 1, 0);
  for (std::int64_t t = 0; t < slots; ++t) {
    const std::int32_t *tv = v.data() + 3 * t;
    if (tv[0] < 0)
      continue;
    for (int k = 0; k < 3; ++k) {
      if (tv[k] < 0 || tv[k] >= num_points)
        return Status::error(str_cat(what, ": triangle ", t + first, ": point ", tv[k] + first,
                                     " is out of range [", first, ", ", num_points - 1 + first,
                                     "]"));
      if (tv[k] == tv[(k + 1) % 3])
        return Status::error(
            str_cat(what, ": triangle ", t + first, " has point ", tv[k] + first, " twice"));
    }
    for (int k = 0; k < 3; ++k)
      ++offset[static_cast<std::size_t>(tv[k]) + 1];
  }
  for (std::size_t p = 0; p + 1 < offset.size(); ++p)
    offset[p + 1] += offset[p];
  std::vector<std::uint32_t> star(offset.back());
  {
    std::vector<std::uint32_t> cursor(offset.begin(), offset.end() - 1);
    for (std::int64_t t = 0; t < slots; ++t)
      if (v[3 * t] >= 0)
        for (int k = 0; k < 3; ++k)
          star[cursor[static_cast<std::size_t>(v[3 * t + k])]++] =
              static_cast<std::uint32_t>(3 * t + k);
  }

  for (std::int64_t t = 0; t < slots; ++t) {
    if (v[3 * t] < 0)
      continue;
    for (int i = 0; i < 3; ++i) {
      if (n[3 * t + i] >= 0)
        continue; // found from the other side
      const std::int32_t a = v[3 * t + (i + 1) % 3];
      const std::int32_t b = v[3 * t + (i + 2) % 3];
      // Every other triangle with the edge {a, b}: in a manifold at most one,
      // running it b->a.
      std::int64_t same = -1, reverse = -1, reverse_edge = -1, others = 0;
      std::int64_t listed[3] = {-1, -1, -1};
      for (std::uint32_t e = offset[a]; e < offset[a + 1]; ++e) {
        const std::int64_t s = star[e] / 3;
        const std::int32_t j = static_cast<std::int32_t>(star[e] % 3);
        if (s == t)
          continue;
        const std::int32_t next = v[3 * s + (j + 1) % 3];
        const std::int32_t prev = v[3 * s + (j + 2) % 3];
        if (next != b && prev != b)
          continue;
        if (others < 3)
          listed[others] = s;
        ++others;
        if (next == b) {
          same = s;
        } else {
          reverse = s;
          reverse_edge = (j + 1) % 3; // s's edge prev->a lies opposite corner j + 1
        }
      }
      if (others >= 2) {
        std::string names = str_cat(t + first);
        for (std::int64_t k = 0; k < others && k < 3; ++k)
          names += str_cat(", ", listed[k] + first);
        return Status::error(str_cat(what, ": the edge between points ", a + first, " and ",
                                     b + first, " belongs to ", others + 1, " triangles (", names,
                                     others > 3 ? ", ..." : "", "): not a manifold"));
      }
      if (same >= 0)
        return Status::error(str_cat(what, ": triangles ", t + first, " and ", same + first,
                                     " both have the edge from point ", a + first, " to point ",
                                     b + first, ": they overlap or their orientations disagree"));
      if (reverse >= 0) {
        n[3 * t + i] = static_cast<std::int32_t>(reverse);
        n[3 * reverse + reverse_edge] = static_cast<std::int32_t>(t);
      }
    }
  }
  return Status();
}

Status build_neighbors(Mesh &m, const std::string &what, std::int64_t first_number) {
  if (m.x.size() != m.y.size())
    return Status::error(
        str_cat(what, ": ", m.x.size(), " x coordinates but ", m.y.size(), " y coordinates"));
  return compute_neighbors(m.v, m.num_points(), m.n, what, first_number);
}

void compact(Mesh &m, std::int64_t keep_points) {
  const std::int64_t slots = m.num_slots();
  // Triangles: live slots keep their order.
  std::vector<std::int32_t> slot_to(static_cast<std::size_t>(slots), -1);
  std::int32_t live = 0;
  for (std::int64_t t = 0; t < slots; ++t)
    if (m.v[3 * t] >= 0)
      slot_to[t] = live++;
  // Points: the first keep_points, then the used ones in order.
  const std::int64_t points = m.num_points();
  if (keep_points > points)
    keep_points = points;
  if (keep_points < 0)
    keep_points = 0;
  std::vector<std::int32_t> point_to(static_cast<std::size_t>(points), -1);
  for (std::int64_t t = 0; t < slots; ++t)
    if (m.v[3 * t] >= 0)
      for (int k = 0; k < 3; ++k)
        point_to[m.v[3 * t + k]] = 0;
  std::int32_t kept = 0;
  for (std::int64_t p = 0; p < points; ++p)
    if (p < keep_points || point_to[p] == 0)
      point_to[p] = kept++;

  for (std::int64_t p = 0; p < points; ++p)
    if (point_to[p] >= 0) {
      m.x[point_to[p]] = m.x[p];
      m.y[point_to[p]] = m.y[p];
    }
  m.x.resize(kept);
  m.y.resize(kept);
  m.x.shrink_to_fit();
  m.y.shrink_to_fit();

  for (std::int64_t t = 0; t < slots; ++t) {
    const std::int32_t to = slot_to[t];
    if (to < 0)
      continue;
    for (int k = 0; k < 3; ++k) {
      const std::int32_t nb = m.n[3 * t + k];
      m.v[3 * to + k] = point_to[m.v[3 * t + k]];
      // A neighbour that is a free slot would be a broken mesh; it becomes
      // the boundary rather than an index out of range.
      m.n[3 * to + k] = nb >= 0 && nb < slots ? slot_to[nb] : -1;
    }
  }
  m.v.resize(3 * static_cast<std::size_t>(live));
  m.n.resize(3 * static_cast<std::size_t>(live));
  m.v.shrink_to_fit();
  m.n.shrink_to_fit();
}

std::int64_t count_bad(const Mesh &m, double cos2_min) {
  std::int64_t bad = 0;
  for (std::size_t s = 0; s < m.v.size(); s += 3) {
    if (m.v[s] < 0)
      continue;
    const Point a{m.x[m.v[s]], m.y[m.v[s]]};
    const Point b{m.x[m.v[s + 1]], m.y[m.v[s + 1]]};
    const Point c{m.x[m.v[s + 2]], m.y[m.v[s + 2]]};
    bad += is_bad(a, b, c, cos2_min);
  }
  return bad;
}

double cos2_of_degrees(double degrees) {
  // In long double where it is wider, so that 30 degrees gives 0.75 exactly.
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double c = std::cos(static_cast<long double>(degrees) * pi / 180);
  return static_cast<double>(c * c);
}

} // namespace dd::dmr
