// The random-square triangulator: a valid triangulation with the counts of
// the formula, exactly Delaunay (no point strictly inside any triangle's
// circle, by brute force in exact integers), on the lattice, deterministic
// per seed, and fast enough for large inputs.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <utility>
#include <vector>

#include "DmrTestUtil.h"
#include "dmr/mesh.h"
#include "dmr/triangulate.h"
#include "dmr/verify.h"

namespace dd::dmr {
namespace {

using graph::Expected;

Mesh triangulate(std::int64_t interior, std::uint64_t seed) {
  Expected<Mesh> m = random_square_mesh(interior, seed);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(m).value() : Mesh();
}

// The properties every result has: the counts, a valid triangulation, the
// corners first, distinct lattice points strictly inside, every point a
// vertex, and the whole square covered (the area sums exactly on the
// lattice).
void expect_valid(const Mesh &m, std::int64_t interior) {
  ASSERT_EQ(m.num_points(), interior + 4);
  ASSERT_EQ(m.num_slots(), 2 * (interior + 4) - 6);
  EXPECT_EQ(m.num_triangles(), m.num_slots());
  const graph::Status s = check_triangulation(m, "mesh");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(std::vector<double>(m.x.begin(), m.x.begin() + 4), (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(std::vector<double>(m.y.begin(), m.y.begin() + 4), (std::vector<double>{0, 0, 1, 1}));
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (std::int64_t p = 0; p < m.num_points(); ++p) {
    ASSERT_TRUE(test::on_lattice(m.x[p]) && test::on_lattice(m.y[p])) << "point " << p;
    const std::int64_t x = test::lattice(m.x[p]), y = test::lattice(m.y[p]);
    if (p >= 4) {
      ASSERT_GT(x, 0);
      ASSERT_LT(x, 1 << 20);
      ASSERT_GT(y, 0);
      ASSERT_LT(y, 1 << 20);
    }
    ASSERT_TRUE(seen.insert({x, y}).second) << "point " << p << " repeats";
  }
  std::vector<bool> used(static_cast<std::size_t>(m.num_points()), false);
  double area = 0, boundary = 0;
  for (std::int64_t t = 0; t < m.num_slots(); ++t) {
    const std::int32_t *tv = m.v.data() + 3 * t;
    for (int k = 0; k < 3; ++k)
      used[tv[k]] = true;
    area += 0.5 *
            orient2d({m.x[tv[0]], m.y[tv[0]]}, {m.x[tv[1]], m.y[tv[1]]}, {m.x[tv[2]], m.y[tv[2]]});
    for (int i = 0; i < 3; ++i)
      if (m.n[3 * t + i] < 0) {
        const std::int32_t a = tv[(i + 1) % 3], b = tv[(i + 2) % 3];
        boundary += std::abs(m.x[a] - m.x[b]) + std::abs(m.y[a] - m.y[b]); // axis-parallel
        EXPECT_TRUE(m.x[a] == m.x[b] ? m.x[a] == 0 || m.x[a] == 1
                                     : m.y[a] == m.y[b] && (m.y[a] == 0 || m.y[a] == 1))
            << "boundary edge " << a << "-" << b << " is not on the square's sides";
      }
  }
  EXPECT_EQ(area, 1.0);
  EXPECT_EQ(boundary, 4.0);
  for (std::int64_t p = 0; p < m.num_points(); ++p)
    EXPECT_TRUE(used[p]) << "point " << p << " is no vertex";
}

// Brute force: no point lies strictly inside the circle of any triangle.
void expect_delaunay_brute_force(const Mesh &m) {
  std::int64_t violations = 0;
  for (std::int64_t t = 0; t < m.num_slots(); ++t) {
    const std::int32_t *tv = m.v.data() + 3 * t;
    for (std::int32_t p = 0; p < m.num_points(); ++p)
      if (p != tv[0] && p != tv[1] && p != tv[2] &&
          test::exact_incircle(m, tv[0], tv[1], tv[2], p) > 0)
        ++violations;
  }
  EXPECT_EQ(violations, 0);
}

// Locally: across every edge, the far vertex is not strictly inside
// (equivalent to the brute force for a triangulation).
std::int64_t local_violations(const Mesh &m) {
  std::int64_t violations = 0;
  for (std::int32_t t = 0; t < m.num_slots(); ++t)
    for (int i = 0; i < 3; ++i) {
      const std::int32_t u = m.n[3 * t + i];
      if (u < 0)
        continue;
      const std::int32_t d = m.v[3 * u + test::edge_in(m, u, t)];
      violations += test::exact_incircle(m, m.v[3 * t], m.v[3 * t + 1], m.v[3 * t + 2], d) > 0;
    }
  return violations;
}

TEST(Triangulate, SmallMeshesAreDelaunay) {
  for (std::int64_t n : {0, 1, 2, 3, 5, 17, 100, 1500}) {
    SCOPED_TRACE(n);
    for (std::uint64_t seed : {1u, 2u, 99u}) {
      const Mesh m = triangulate(n, seed);
      expect_valid(m, n);
      expect_delaunay_brute_force(m);
      EXPECT_EQ(local_violations(m), 0);
    }
  }
}

TEST(Triangulate, TheEmptySquare) {
  const Mesh m = triangulate(0, 1);
  EXPECT_EQ(m.v, (std::vector<std::int32_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(m.n, (std::vector<std::int32_t>{-1, 1, -1, -1, -1, 0}));
}

TEST(Triangulate, DeterministicPerSeed) {
  const Mesh a = triangulate(5000, 42), b = triangulate(5000, 42), c = triangulate(5000, 43);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.v, b.v);
  EXPECT_EQ(a.n, b.n);
  EXPECT_NE(a.x, c.x);
}

// The morph paper's inputs: about half of the triangles are bad at 30
// degrees. A 100k-point mesh is built in well under a second.
TEST(Triangulate, HundredThousandPoints) {
  const auto start = std::chrono::steady_clock::now();
  const Mesh m = triangulate(100000, 7);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  expect_valid(m, 100000);
  EXPECT_EQ(local_violations(m), 0);
  const double bad = static_cast<double>(count_bad(m, cos2_of_degrees(30))) /
                     static_cast<double>(m.num_triangles());
  RecordProperty("seconds", std::to_string(seconds));
  RecordProperty("bad_fraction_30", std::to_string(bad));
  EXPECT_GT(bad, 0.4);
  EXPECT_LT(bad, 0.55);
  // Generous: about 0.1 s on one core of a 2025 machine.
  EXPECT_LT(seconds, 10.0);
}

TEST(Triangulate, Errors) {
  Expected<Mesh> m = random_square_mesh(-1, 1);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "a mesh needs a non-negative number of points, not -1");
  m = random_square_mesh(kMaxRandomPoints + 1, 1);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message(), "357913941 points, more than the 357913940 whose triangles "
                                  "32-bit indices can number");
  EXPECT_EQ(3 * (2 * (kMaxRandomPoints + 4) - 6), 2147483646);
}

} // namespace
} // namespace dd::dmr
