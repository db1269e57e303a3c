// --verify's checks: a valid Delaunay mesh passes (at any scale) and each
// kind of broken mesh is caught with its triangle: a flipped triangle,
// broken or one-sided adjacency, an edge of three triangles, a non-Delaunay
// edge, an input point moved or left out, a missing piece of area, and a
// bad triangle.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "DmrTestUtil.h"
#include "dmr/mesh.h"
#include "dmr/triangulate.h"
#include "dmr/verify.h"

namespace dd::dmr {
namespace {

using graph::Expected;
using graph::Status;

Mesh input(std::int64_t interior = 3000, std::uint64_t seed = 7) {
  Expected<Mesh> m = random_square_mesh(interior, seed);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return m.ok() ? std::move(m).value() : Mesh();
}

const double kAnyAngle = cos2_of_degrees(0);

// The message of a verification that must fail.
std::string failure(const Mesh &in, const Mesh &out, double cos2_min = kAnyAngle) {
  Expected<VerifySummary> s = verify_refined(in, out, cos2_min);
  EXPECT_FALSE(s.ok()) << "verification unexpectedly passed";
  return s.ok() ? std::string() : s.status().message();
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

// An interior edge (t, i) whose quadrilateral is strictly convex and whose
// far vertex is strictly outside the circle: flipping it makes an edge that
// is valid but not Delaunay.
bool flippable(const Mesh &m, std::int32_t t, int i) {
  const std::int32_t u = m.n[3 * t + i];
  if (u < 0)
    return false;
  const std::int32_t a = m.v[3 * t + i], b = m.v[3 * t + (i + 1) % 3], c = m.v[3 * t + (i + 2) % 3],
                     d = m.v[3 * u + test::edge_in(m, u, t)];
  auto p = [&m](std::int32_t k) { return Point{m.x[k], m.y[k]}; };
  return orient2d(p(a), p(b), p(d)) > 0 && orient2d(p(a), p(d), p(c)) > 0 &&
         test::exact_incircle(m, a, b, c, d) < 0;
}

void scale(Mesh &m, double factor, double shift) {
  for (double &x : m.x)
    x = x * factor + shift;
  for (double &y : m.y)
    y = y * factor - shift;
}

TEST(Verify, ValidMeshPasses) {
  const Mesh in = input();
  Expected<VerifySummary> s = verify_refined(in, in, kAnyAngle);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->triangles, 2 * 3004 - 6);
  EXPECT_EQ(s->points, 3004);
  EXPECT_GT(s->min_angle_degrees, 0);
  EXPECT_LT(s->min_angle_degrees, 30);
  EXPECT_LE(s->worst_delaunay, kDelaunayTolerance);
  // Exactly Delaunay, so far below the tolerance.
  EXPECT_LT(s->worst_delaunay, 1e-12);
  EXPECT_TRUE(check_triangulation(in, "in").ok());

  // More points than the input's, after them: the refinement's.
  Mesh out = in;
  out.x.push_back(0.5);
  out.y.push_back(0.5);
  s = verify_refined(in, out, kAnyAngle);
  EXPECT_TRUE(s.ok()) << s.status().message();
}

TEST(Verify, AnyScale) {
  for (double factor : {1e-6, 3.7, 1e6}) {
    SCOPED_TRACE(factor);
    Mesh in = input(500, 3);
    scale(in, factor, factor * 0.3);
    Expected<VerifySummary> s = verify_refined(in, in, kAnyAngle);
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_LE(s->worst_delaunay, kDelaunayTolerance);
  }
}

TEST(Verify, FlippedTriangle) {
  const Mesh in = input();
  Mesh out = in;
  std::swap(out.v[3 * 5 + 1], out.v[3 * 5 + 2]);
  const std::string m = failure(in, out);
  EXPECT_TRUE(contains(m, "refined mesh: triangle 5 (point ")) << m;
  EXPECT_TRUE(contains(m, ") is not counter-clockwise (orient2d = -")) << m;
}

TEST(Verify, ZeroArea) {
  Mesh m;
  m.x = {0, 1, 2, 0};
  m.y = {0, 0, 0, 1};
  m.v = {0, 1, 2};
  m.n = {-1, -1, -1};
  EXPECT_EQ(check_triangulation(m, "m").message(),
            "m: triangle 0 (point 0 (0, 0), point 1 (1, 0), point 2 (2, 0)) has zero area "
            "(orient2d = 0)");
}

TEST(Verify, BrokenAdjacency) {
  const Mesh in = input();
  // An interior edge of triangle 10.
  int i = 0;
  while (in.n[3 * 10 + i] < 0)
    ++i;
  const std::int32_t u = in.n[3 * 10 + i];
  const std::string edge = "the edge from point " + std::to_string(in.v[3 * 10 + (i + 1) % 3]) +
                           " to point " + std::to_string(in.v[3 * 10 + (i + 2) % 3]);

  Mesh out = in;
  out.n[3 * 10 + i] = -1; // the boundary where there is a neighbour
  EXPECT_EQ(failure(in, out), "refined mesh: triangle 10 has no neighbour across " + edge +
                                  ", but triangle " + std::to_string(u) + " shares that edge");

  out = in;
  const std::int32_t other = u == 11 ? 12 : 11;
  out.n[3 * 10 + i] = other; // one-sided: u still points back at 10
  EXPECT_EQ(failure(in, out), "refined mesh: triangle 10 has neighbour " + std::to_string(other) +
                                  " across " + edge + ", but triangle " + std::to_string(u) +
                                  " shares that edge");

  out = in;
  out.n[3 * 10 + i] = static_cast<std::int32_t>(out.num_slots()); // not a triangle
  EXPECT_TRUE(contains(failure(in, out), "is not a triangle")) << failure(in, out);
  out.n[3 * 10 + i] = 10;
  EXPECT_TRUE(contains(failure(in, out), "is itself")) << failure(in, out);

  // A boundary edge given a neighbour.
  out = in;
  int b = 0;
  std::int32_t t = 0;
  for (;; ++t) {
    for (b = 0; b < 3 && out.n[3 * t + b] >= 0; ++b) {
    }
    if (b < 3)
      break;
  }
  out.n[3 * t + b] = t == 0 ? 1 : 0;
  EXPECT_TRUE(contains(failure(in, out), ", but no triangle shares that edge")) << failure(in, out);
}

TEST(Verify, EdgeOfThreeTriangles) {
  const Mesh in = input(100, 1);
  Mesh out = in;
  // Triangle 0 twice: each of its edges now has two triangles in one
  // direction.
  out.v.insert(out.v.end(), in.v.begin(), in.v.begin() + 3);
  out.n.insert(out.n.end(), in.n.begin(), in.n.begin() + 3);
  const std::string m = failure(in, out);
  EXPECT_TRUE(contains(m, "refined mesh: ")) << m;
  EXPECT_TRUE(contains(m, "they overlap or their orientations disagree") ||
              contains(m, "not a manifold"))
      << m;
}

TEST(Verify, NonDelaunayEdge) {
  for (double factor : {1.0, 1e-6, 1e6}) {
    SCOPED_TRACE(factor);
    Mesh in = input(2000, 9);
    Mesh out = in;
    std::int32_t t = -1;
    int i = 0;
    while (++t < out.num_slots() && !flippable(out, t, i) && !flippable(out, t, ++i) &&
           !flippable(out, t, ++i))
      i = 0;
    ASSERT_LT(t, out.num_slots());
    test::flip(out, t, i);
    scale(in, factor, 0.25 * factor);
    scale(out, factor, 0.25 * factor);
    // Still a valid triangulation covering the input: only the Delaunay
    // check sees it.
    ASSERT_TRUE(check_triangulation(out, "out").ok()) << check_triangulation(out, "out").message();
    const std::string m = failure(in, out);
    EXPECT_TRUE(contains(m, "refined mesh: not Delaunay: point ")) << m;
    EXPECT_TRUE(contains(m, "lies inside the circle of triangle ")) << m;
  }
}

// check_delaunay (what dd-dmr runs on its input): the valid mesh passes
// with its worst value reported, the flipped edge fails with its name.
TEST(Verify, CheckDelaunayAlone) {
  Mesh m = input(2000, 9);
  double worst = 1;
  ASSERT_TRUE(check_delaunay(m, "in", &worst).ok());
  EXPECT_LE(worst, kDelaunayTolerance);
  std::int32_t t = -1;
  int i = 0;
  while (++t < m.num_slots() && !flippable(m, t, i) && !flippable(m, t, ++i) &&
         !flippable(m, t, ++i))
    i = 0;
  ASSERT_LT(t, m.num_slots());
  test::flip(m, t, i);
  const Status s = check_delaunay(m, "in.ele");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains(s.message(), "in.ele: not Delaunay: point ")) << s.message();
}

TEST(Verify, MovedInputPoint) {
  const Mesh in = input();
  Mesh out = in;
  out.x[100] = std::nextafter(out.x[100], 2.0);
  const std::string m = failure(in, out);
  EXPECT_TRUE(contains(m, "refined mesh: input point 100 (")) << m;
  EXPECT_TRUE(contains(m, ") is at (")) << m;
}

TEST(Verify, MissingInputPoint) {
  // An input point that the output's triangles leave out.
  Mesh in = input();
  in.x.push_back(0.5);
  in.y.push_back(0.5);
  const Mesh out = in;
  EXPECT_EQ(failure(in, out),
            "refined mesh: input point 3004 (0.5, 0.5) is not a vertex of any triangle");
  // Fewer points than the input.
  Mesh fewer = in;
  fewer.x.pop_back();
  fewer.y.pop_back();
  EXPECT_EQ(failure(in, fewer), "refined mesh: 3004 points, fewer than the input's 3005");
}

TEST(Verify, MissingArea) {
  const Mesh in = input();
  // Drop a triangle with one boundary edge whose vertices other triangles
  // still use: a valid triangulation of less than the square.
  std::vector<int> uses(static_cast<std::size_t>(in.num_points()), 0);
  for (std::int32_t p : in.v)
    ++uses[p];
  std::int32_t t = 0;
  for (;; ++t) {
    ASSERT_LT(t, in.num_slots());
    int boundary = 0, shared = 0;
    for (int k = 0; k < 3; ++k) {
      boundary += in.n[3 * t + k] < 0;
      shared += uses[in.v[3 * t + k]] > 1;
    }
    if (boundary == 1 && shared == 3)
      break;
  }
  Mesh out = in;
  for (int k = 0; k < 3; ++k) {
    const std::int32_t u = out.n[3 * t + k];
    if (u >= 0)
      out.n[3 * u + test::edge_in(out, u, t)] = -1;
    out.v[3 * t + k] = -1;
    out.n[3 * t + k] = -1;
  }
  ASSERT_TRUE(check_triangulation(out, "out").ok()) << check_triangulation(out, "out").message();
  const std::string m = failure(in, out);
  EXPECT_TRUE(contains(m, "refined mesh: area 0.99")) << m;
  EXPECT_TRUE(contains(m, ", not the input's 1 (relative tolerance 1.0000000000000001e-09)")) << m;
}

TEST(Verify, BadTriangle) {
  const Mesh in = input();
  const std::string m = failure(in, in, cos2_of_degrees(30));
  EXPECT_TRUE(contains(m, "refined mesh: bad triangle ")) << m;
  EXPECT_TRUE(contains(m, " degrees, below 30.0000")) << m;
  // The smallest angle of the mesh is below every bound above it.
  Expected<VerifySummary> s = verify_refined(in, in, kAnyAngle);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(verify_refined(in, in, cos2_of_degrees(s->min_angle_degrees * 0.999)).ok());
  EXPECT_FALSE(verify_refined(in, in, cos2_of_degrees(s->min_angle_degrees * 1.001)).ok());
}

} // namespace
} // namespace dd::dmr
