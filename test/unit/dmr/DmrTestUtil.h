// Helpers shared by the DMR unit tests: exact predicates on the
// triangulator's lattice, an edge flip, a temporary directory.
#ifndef DD_TEST_DMR_TEST_UTIL_H
#define DD_TEST_DMR_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "dmr/mesh.h"

namespace dd::dmr::test {

/// The lattice coordinate of a random_square_mesh coordinate (k / 2^20;
/// on_lattice() says whether d is one).
inline std::int64_t lattice(double d) { return static_cast<std::int64_t>(d * 1048576.0); }
inline bool on_lattice(double d) { return static_cast<double>(lattice(d)) == d * 1048576.0; }

/// incircle's sign, exactly, for lattice points: > 0 when d lies strictly
/// inside the circle of the counter-clockwise a, b, c.
inline int exact_incircle(const Mesh &m, std::int32_t a, std::int32_t b, std::int32_t c,
                          std::int32_t d) {
  const std::int64_t dx = lattice(m.x[d]), dy = lattice(m.y[d]);
  const std::int64_t adx = lattice(m.x[a]) - dx, ady = lattice(m.y[a]) - dy;
  const std::int64_t bdx = lattice(m.x[b]) - dx, bdy = lattice(m.y[b]) - dy;
  const std::int64_t cdx = lattice(m.x[c]) - dx, cdy = lattice(m.y[c]) - dy;
  const __int128 alift = adx * adx + ady * ady, blift = bdx * bdx + bdy * bdy,
                 clift = cdx * cdx + cdy * cdy;
  const __int128 det = alift * (bdx * cdy - bdy * cdx) + blift * (cdx * ady - cdy * adx) +
                       clift * (adx * bdy - ady * bdx);
  return det > 0 ? 1 : det < 0 ? -1 : 0;
}

/// The index j with m.n[3 u + j] == t.
inline int edge_in(const Mesh &m, std::int32_t u, std::int32_t t) {
  for (int j = 0; j < 3; ++j)
    if (m.n[3 * u + j] == t)
      return j;
  return -1;
}

/// Flips the edge across from vertex i of triangle t (an interior edge of
/// a convex quadrilateral), keeping the adjacency right: (a, b, c) and
/// (d, c, b) with the edge b-c become (a, b, d) and (a, d, c).
inline void flip(Mesh &m, std::int32_t t, int i) {
  const std::int32_t u = m.n[3 * t + i];
  const int j = edge_in(m, u, t);
  const std::int32_t a = m.v[3 * t + i], b = m.v[3 * t + (i + 1) % 3], c = m.v[3 * t + (i + 2) % 3],
                     d = m.v[3 * u + j];
  // The outer neighbours: across a-b and c-a in t, across d-c and b-d in u.
  const std::int32_t t_ab = m.n[3 * t + (i + 2) % 3], t_ca = m.n[3 * t + (i + 1) % 3];
  const std::int32_t u_dc = m.n[3 * u + (j + 2) % 3], u_bd = m.n[3 * u + (j + 1) % 3];
  // t = (a, b, d): across b-d u_bd, across d-a u, across a-b t_ab.
  m.v[3 * t] = a, m.v[3 * t + 1] = b, m.v[3 * t + 2] = d;
  m.n[3 * t] = u_bd, m.n[3 * t + 1] = u, m.n[3 * t + 2] = t_ab;
  // u = (a, d, c): across d-c u_dc, across c-a t_ca, across a-d t.
  m.v[3 * u] = a, m.v[3 * u + 1] = d, m.v[3 * u + 2] = c;
  m.n[3 * u] = u_dc, m.n[3 * u + 1] = t_ca, m.n[3 * u + 2] = t;
  // The outer triangles that moved from t to u and from u to t.
  if (t_ca >= 0)
    m.n[3 * t_ca + edge_in(m, t_ca, t)] = u;
  if (u_bd >= 0)
    m.n[3 * u_bd + edge_in(m, u_bd, u)] = t;
}

/// A fresh directory under the test's temporary folder.
inline std::string temp_dir() {
  std::string path = ::testing::TempDir() + "dmr-test-XXXXXX";
  EXPECT_NE(::mkdtemp(path.data()), nullptr);
  return path;
}

} // namespace dd::dmr::test

#endif // DD_TEST_DMR_TEST_UTIL_H
