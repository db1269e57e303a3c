// Triangle's .node/.ele files and the mesh itself: the reader (layouts,
// 1-based numbering, clockwise triangles turned, every class of bad input
// with its line), the writer (bit-exact round trips, both files or
// neither), the adjacency's errors, compaction and the angle counts.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "DmrTestUtil.h"
#include "dmr/mesh.h"
#include "dmr/triangle_io.h"
#include "dmr/triangulate.h"
#include "dmr/verify.h"
#include "graph/file.h"
#include "graph/random.h"

namespace dd::dmr {
namespace {

using graph::Expected;
using graph::Status;

const char *const kSquareNode = "4 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n";
const char *const kSquareEle = "2 3 0\n0 0 1 2\n1 0 2 3\n";

Mesh parse_ok(std::string_view node, std::string_view ele) {
  Expected<Mesh> m = parse_mesh(node, "m.node", ele, "m.ele");
  EXPECT_TRUE(m.ok()) << m.status().message();
  if (!m.ok())
    return Mesh();
  EXPECT_TRUE(check_triangulation(*m, "m").ok()) << check_triangulation(*m, "m").message();
  return std::move(m).value();
}

std::string parse_error(std::string_view node, std::string_view ele = kSquareEle) {
  Expected<Mesh> m = parse_mesh(node, "m.node", ele, "m.ele");
  EXPECT_FALSE(m.ok()) << "parsing unexpectedly succeeded:\n" << node << "---\n" << ele;
  return m.ok() ? std::string() : m.status().message();
}

std::string ele_error(std::string_view ele) { return parse_error(kSquareNode, ele); }

void expect_square(const Mesh &m) {
  EXPECT_EQ(m.x, (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(m.y, (std::vector<double>{0, 0, 1, 1}));
  EXPECT_EQ(m.v, (std::vector<std::int32_t>{0, 1, 2, 0, 2, 3}));
  // (0, 1, 2) meets (0, 2, 3) across the diagonal, opposite its vertex 1
  // there and opposite vertex 2 (index 2) in the other.
  EXPECT_EQ(m.n, (std::vector<std::int32_t>{-1, 1, -1, -1, -1, 0}));
}

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool exists(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

TEST(TriangleIo, ReadsTheSquare) { expect_square(parse_ok(kSquareNode, kSquareEle)); }

TEST(TriangleIo, CommentsBlankLinesAttributesAndMarkers) {
  expect_square(parse_ok("# made by hand\n\n  4 2 1 1 # header\n0 0 0 7.5 1\n"
                         "1 1.0 0e0 -2 0 # a comment\n\n2 +1 1 1e3 1\r\n3 0 1 inf -1\n#\n",
                         "# ele\n2 3 1\n0 0 1 2 0.5\n   # x\n1 0 2 3 -1\n\n"));
}

TEST(TriangleIo, HeaderFieldsDefaultAsTriangleDoes) {
  expect_square(parse_ok("4\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n", "2\n0 0 1 2\n1 0 2 3\n"));
}

TEST(TriangleIo, OneBasedFiles) {
  expect_square(parse_ok("4 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n", "2 3 0\n1 1 2 3\n2 1 3 4\n"));
}

TEST(TriangleIo, ClockwiseTrianglesAreTurned) {
  expect_square(parse_ok(kSquareNode, "2 3 0\n0 0 2 1\n1 0 3 2\n"));
}

TEST(TriangleIo, UnusedPointsAreKept) {
  const Mesh m = parse_ok("6 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n4 1 1\n5 7 7\n", kSquareEle);
  EXPECT_EQ(m.num_points(), 6);
  EXPECT_EQ(m.num_triangles(), 2);
}

TEST(TriangleIo, NodeErrors) {
  const std::string header = "'POINTS 2 ATTRIBUTES MARKERS'";
  EXPECT_EQ(parse_error(""), "m.node:1: end of file before the header " + header);
  EXPECT_EQ(parse_error("# only\n\n"), "m.node:2: end of file before the header " + header);
  EXPECT_EQ(parse_error("4 3 0 0\n"), "m.node:1: dimension 3 is not 2 (meshes are planar)");
  EXPECT_EQ(parse_error("#\n4 2 0 2\n"), "m.node:2: boundary marker count 2 is not 0 or 1");
  EXPECT_EQ(parse_error("x 2 0 0\n"),
            "m.node:1: the header " + header + " needs non-negative integers, not 'x'");
  EXPECT_EQ(parse_error("4 2 0 0 9\n"),
            "m.node:1: the header " + header + " has more than four fields");
  EXPECT_EQ(parse_error("3000000000 2 0 0\n"),
            "m.node:1: 3000000000 points, more than the 2147483647 a 32-bit index names");
  EXPECT_EQ(parse_error("99999999 2 0 0\n"),
            "m.node:1: 99999999 points declared, but the file's 15 bytes can hold at most 2");
  EXPECT_EQ(parse_error("4 2 0 0\n0 0 0\n1 1 0\n2 1 1\n"),
            "m.node:1: the header declares 4 points but the file has 3");
  EXPECT_EQ(parse_error("2 2 0 0\n0 0 0\n1 1 0\n# c\n2 1 1\n"),
            "m.node:5: more points than the 2 declared on line 1");
  EXPECT_EQ(parse_error("2 2 0 0\n0 0 0\n2 1 0\n"),
            "m.node:3: point index 2 where 1 was expected (points are numbered consecutively "
            "from 0)");
  EXPECT_EQ(parse_error("2 2 0 0\n1 0 0\n1 1 0\n"),
            "m.node:3: point index 1 where 2 was expected (points are numbered consecutively "
            "from 1)");
  EXPECT_EQ(parse_error("1 2 0 0\n2 0 0\n"),
            "m.node:2: the first point's index 2 is not 0 or 1 (where numbering starts)");
  EXPECT_EQ(parse_error("1 2 0 0\n-1 0 0\n"),
            "m.node:2: point index '-1' is not a non-negative integer");
  EXPECT_EQ(parse_error("1 2 0 0\n0 inf 0\n"),
            "m.node:2: x coordinate 'inf' is not a finite double");
  EXPECT_EQ(parse_error("1 2 0 0\n0 0 nan\n"),
            "m.node:2: y coordinate 'nan' is not a finite double");
  EXPECT_EQ(parse_error("1 2 0 0\n0 0 1e999\n"),
            "m.node:2: y coordinate '1e999' is not a finite double");
  EXPECT_EQ(parse_error("1 2 0 0\n0 0 1,5\n"), "m.node:2: y coordinate '1,5' is not a number");
  EXPECT_EQ(parse_error("1 2 0 0\n0 0x1 0\n"), "m.node:2: x coordinate '0x1' is not a number");
  EXPECT_EQ(parse_error("1 2 0 0\n0 0\n"),
            "m.node:2: a point line has 3 fields (index, x, y, 0 attributes, 0 boundary "
            "markers), not 2");
  EXPECT_EQ(parse_error("1 2 1 1\n0 0 0 1\n"),
            "m.node:2: a point line has 5 fields (index, x, y, 1 attributes, 1 boundary "
            "markers), not 4");
  EXPECT_EQ(parse_error("1 2 0 1\n0 0 0 x\n"), "m.node:2: boundary marker 'x' is not an integer");
  EXPECT_EQ(parse_error("1 2 1 0\n0 0 0 y\n"), "m.node:2: attribute 'y' is not a number");
}

TEST(TriangleIo, EleErrors) {
  const std::string header = "'TRIANGLES 3 ATTRIBUTES'";
  EXPECT_EQ(ele_error("# nothing\n"), "m.ele:1: end of file before the header " + header);
  EXPECT_EQ(ele_error("2 6 0\n"),
            "m.ele:1: 6-node (second-order) triangles are not supported; write 3-node ones "
            "(Triangle without -o2)");
  EXPECT_EQ(ele_error("2 4 0\n"), "m.ele:1: 4 nodes per triangle; a triangle has 3");
  EXPECT_EQ(ele_error("2 3 0 1\n"),
            "m.ele:1: the header " + header + " has more than three fields");
  EXPECT_EQ(ele_error("2 3 -1\n"),
            "m.ele:1: the header " + header + " needs non-negative integers, not '-1'");
  EXPECT_EQ(ele_error("3 3 0 # three\n0 0 1 2\n1 0 2 3\n"),
            "m.ele:1: the header declares 3 triangles but the file has 2");
  EXPECT_EQ(ele_error("3 3 0\n0 0 1 2\n1 0 2 3\n"),
            "m.ele:1: 3 triangles declared, but the file's 22 bytes can hold at most 2");
  EXPECT_EQ(ele_error("800000000 3 0\n"),
            "m.ele:1: 800000000 triangles, more than the 715827882 whose vertex slots 32-bit "
            "indices reach");
  EXPECT_EQ(ele_error("1 3 0\n0 0 1 2\n1 0 2 3\n"),
            "m.ele:3: more triangles than the 1 declared on line 1");
  EXPECT_EQ(ele_error("2 3 0\n0 0 1 2\n2 0 2 3\n"),
            "m.ele:3: triangle index 2 where 1 was expected (triangles are numbered "
            "consecutively from 0, as the points of m.node are)");
  EXPECT_EQ(ele_error("1 3 0\n0 0 1 4\n"),
            "m.ele:2: point index 4 is out of range [0, 3] (m.node has 4 points)");
  EXPECT_EQ(ele_error("1 3 0\n0 0 1 x\n"),
            "m.ele:2: point index 'x' is not a non-negative integer");
  EXPECT_EQ(ele_error("1 3 0\n0 0 1 1\n"), "m.ele:2: triangle 0 has point 1 twice");
  EXPECT_EQ(ele_error("1 3 0\n0 2 1 2\n"), "m.ele:2: triangle 0 has point 2 twice");
  EXPECT_EQ(ele_error("1 3 0\n0 0 1\n"),
            "m.ele:2: a triangle line has 4 fields (index, 3 points, 0 attributes), not 3");
  EXPECT_EQ(ele_error("1 3 1\n0 0 1 2 z\n"), "m.ele:2: attribute 'z' is not a number");
  // 1-based: 0 is below the first index.
  EXPECT_EQ(parse_error("4 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n", "1 3 0\n1 0 1 2\n"),
            "m.ele:2: point index 0 is out of range [1, 4] (m.node has 4 points)");
  EXPECT_EQ(parse_error("0 2 0 0\n", "1 3 0\n0 0 1 2\n"),
            "m.ele:2: point index 0 is out of range: m.node has no points");
  // Collinear points: no area.
  EXPECT_EQ(parse_error("3 2 0 0\n0 0 0\n1 0.5 0\n2 1 0\n", "1 3 0\n0 0 1 2\n"),
            "m.ele:2: triangle 0 has zero area (points 0, 1, 2 are collinear)");
  EXPECT_EQ(parse_error("3 2 0 0\n0 -1e200 0\n1 1e200 0\n2 0 1e200\n", "1 3 0\n0 0 1 2\n"),
            "m.ele:2: triangle 0: its area overflows double precision");
}

TEST(TriangleIo, PointsInOnePlace) {
  // Points 2 and 4 coincide and triangles use both.
  EXPECT_EQ(
      parse_error("5 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n\n4 1 1\n", "2 3 0\n0 0 1 2\n1 0 4 3\n"),
      "m.node:7: point 4 lies where point 2 (line 4) does, and triangles use both");
  // -0 is 0.
  EXPECT_EQ(
      parse_error("5 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n4 -0 0\n", "2 3 0\n0 4 1 2\n1 0 2 3\n"),
      "m.node:6: point 4 lies where point 0 (line 2) does, and triangles use both");
  // A repeat that no triangle uses is only an uncovered point.
  const Mesh m = parse_ok("5 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n4 1 1\n", kSquareEle);
  EXPECT_EQ(m.num_points(), 5);
}

TEST(TriangleIo, NotAManifold) {
  // Three triangles on the diagonal 0-2.
  EXPECT_EQ(parse_error("5 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n4 2 0.5\n",
                        "3 3 0\n0 0 1 2\n1 0 2 3\n2 0 4 2\n"),
            "m.ele: the edge between points 2 and 0 belongs to 3 triangles (0, 1, 2): not a "
            "manifold");
  // The same, 1-based: the file's numbers.
  EXPECT_EQ(parse_error("5 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n5 2 0.5\n",
                        "3 3 0\n1 1 2 3\n2 1 3 4\n3 1 5 3\n"),
            "m.ele: the edge between points 3 and 1 belongs to 3 triangles (1, 2, 3): not a "
            "manifold");
  // Overlapping triangles share an edge in one direction.
  EXPECT_EQ(parse_error(kSquareNode, "2 3 0\n0 0 1 2\n1 0 1 3\n"),
            "m.ele: triangles 0 and 1 both have the edge from point 0 to point 1: they overlap "
            "or their orientations disagree");
}

TEST(TriangleIo, MissingFiles) {
  const std::string dir = test::temp_dir();
  Expected<Mesh> m = read_mesh(dir + "/none");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message().rfind(dir + "/none.node: cannot open", 0), 0u)
      << m.status().message();
  ASSERT_TRUE(graph::write_file(dir + "/half.node", kSquareNode).ok());
  m = read_mesh(dir + "/half.node");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().message().rfind(dir + "/half.ele: cannot open", 0), 0u)
      << m.status().message();
}

TEST(TriangleIo, MeshBase) {
  EXPECT_EQ(mesh_base("a/b.node"), "a/b");
  EXPECT_EQ(mesh_base("a/b.ele"), "a/b");
  EXPECT_EQ(mesh_base("a/b"), "a/b");
  EXPECT_EQ(mesh_base("a/b.poly"), "a/b.poly");
  EXPECT_EQ(mesh_base(".node"), ".node");
}

TEST(TriangleIo, Texts) {
  const Mesh m = parse_ok(kSquareNode, kSquareEle);
  EXPECT_EQ(node_text(m, "two lines\nof comment"),
            "# two lines\n# of comment\n4 2 0 0\n0 0 0\n1 1 0\n2 1 1\n3 0 1\n");
  EXPECT_EQ(ele_text(m), "2 3 0\n0 0 1 2\n1 0 2 3\n");
  // Free slots are skipped.
  Mesh holes = m;
  holes.v.insert(holes.v.begin(), {-1, -1, -1});
  holes.n.insert(holes.n.begin(), {-1, -1, -1});
  EXPECT_EQ(ele_text(holes), "2 3 0\n0 0 1 2\n1 0 2 3\n");
}

// Every bit of every coordinate survives a write and a read: lattice
// meshes and arbitrary doubles (many exponents, both signs).
TEST(TriangleIo, RoundTripIsBitExact) {
  const std::string dir = test::temp_dir();
  Expected<Mesh> square = random_square_mesh(2000, 5);
  ASSERT_TRUE(square.ok());
  ASSERT_TRUE(write_mesh(dir + "/square", *square, "round trip").ok());
  Expected<Mesh> back = read_mesh(dir + "/square.ele");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->x, square->x);
  EXPECT_EQ(back->y, square->y);
  EXPECT_EQ(back->v, square->v);
  EXPECT_EQ(back->n, square->n);

  // Separate triangles of random doubles, and unused extremes.
  Mesh odd;
  graph::Xoshiro256 rng(11);
  auto random_double = [&rng]() {
    const double mantissa = rng.unit() + 0.5;
    const int exponent = static_cast<int>(rng.below(200)) - 100;
    return (rng.next() & 1 ? -1 : 1) * std::ldexp(mantissa, exponent);
  };
  for (int t = 0; t < 500; ++t) {
    const double scale = std::ldexp(1.0, static_cast<int>(rng.below(200)) - 100);
    double x[3], y[3];
    for (int k = 0; k < 3; ++k) {
      x[k] = random_double() * scale;
      y[k] = random_double() * scale;
    }
    const std::int32_t base = static_cast<std::int32_t>(odd.num_points());
    for (int k = 0; k < 3; ++k) {
      odd.x.push_back(x[k]);
      odd.y.push_back(y[k]);
    }
    const double o = orient2d({x[0], y[0]}, {x[1], y[1]}, {x[2], y[2]});
    if (o == 0)
      continue;
    odd.v.insert(odd.v.end(), {base, o > 0 ? base + 1 : base + 2, o > 0 ? base + 2 : base + 1});
  }
  for (double d : {-0.0, DBL_MAX, -DBL_MIN, 4.9406564584124654e-324, 0.1, 1.0 / 3})
    odd.x.push_back(d), odd.y.push_back(-d);
  ASSERT_TRUE(build_neighbors(odd, "odd").ok());
  ASSERT_TRUE(write_mesh(dir + "/odd.node", odd).ok());
  back = read_mesh(dir + "/odd");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->x.size(), odd.x.size());
  EXPECT_EQ(std::memcmp(back->x.data(), odd.x.data(), odd.x.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(back->y.data(), odd.y.data(), odd.y.size() * sizeof(double)), 0);
  EXPECT_EQ(back->v, odd.v);
  EXPECT_EQ(back->n, odd.n);
}

TEST(TriangleIo, WritesBothFilesOrNeither) {
  const std::string dir = test::temp_dir();
  const Mesh m = parse_ok(kSquareNode, kSquareEle);
  ASSERT_TRUE(write_mesh(dir + "/m", m, "hello").ok());
  EXPECT_EQ(slurp(dir + "/m.node"), "# hello\n" + std::string(kSquareNode));
  EXPECT_EQ(slurp(dir + "/m.ele"), "# hello\n" + std::string(kSquareEle));

  // A folder that is not there: an error naming the .node, no file.
  Status s = write_mesh(dir + "/missing/m", m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind(dir + "/missing/m.node: ", 0), 0u) << s.message();

  // The .ele cannot be written (a directory is in its place): no .node is
  // left behind, and an existing one is not touched.
  ASSERT_EQ(::mkdir((dir + "/d.ele").c_str(), 0755), 0);
  s = write_mesh(dir + "/d", m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind(dir + "/d.ele: ", 0), 0u) << s.message();
  EXPECT_FALSE(exists(dir + "/d.node"));
  ASSERT_TRUE(graph::write_file(dir + "/d.node", "old\n").ok());
  EXPECT_FALSE(write_mesh(dir + "/d", m).ok());
  EXPECT_EQ(slurp(dir + "/d.node"), "old\n");
}

TEST(Mesh, Neighbours) {
  Mesh m;
  m.x = {0, 1, 1, 0};
  m.y = {0, 0, 1, 1};
  m.v = {0, 1, 2, -1, -1, -1, 0, 2, 3};
  ASSERT_TRUE(build_neighbors(m, "m").ok());
  EXPECT_EQ(m.n, (std::vector<std::int32_t>{-1, 2, -1, -1, -1, -1, -1, -1, 0}));
  EXPECT_EQ(m.num_slots(), 3);
  EXPECT_EQ(m.num_triangles(), 2);

  Mesh bad = m;
  bad.v[2] = 4;
  EXPECT_EQ(build_neighbors(bad, "m").message(), "m: triangle 0: point 4 is out of range [0, 3]");
  EXPECT_EQ(build_neighbors(bad, "m", 1).message(),
            "m: triangle 1: point 5 is out of range [1, 4]");
  bad.v[2] = 0;
  EXPECT_EQ(build_neighbors(bad, "m").message(), "m: triangle 0 has point 0 twice");
  bad = m;
  bad.x.push_back(5);
  EXPECT_EQ(build_neighbors(bad, "m").message(), "m: 5 x coordinates but 4 y coordinates");
  // An orientation that disagrees: the second triangle clockwise.
  bad = m;
  bad.v = {0, 1, 2, 0, 3, 2};
  EXPECT_EQ(build_neighbors(bad, "m").message(),
            "m: triangles 0 and 1 both have the edge from point 2 to point 0: they overlap or "
            "their orientations disagree");
}

TEST(Mesh, CompactRenumbers) {
  Mesh m;
  // Points 1 and 5 are used by no triangle; slot 1 is free.
  m.x = {0, 5, 1, 1, 0, 9};
  m.y = {0, 5, 0, 1, 1, 9};
  m.v = {0, 2, 3, -1, -1, -1, 0, 3, 4};
  ASSERT_TRUE(build_neighbors(m, "m").ok());
  EXPECT_EQ(m.n, (std::vector<std::int32_t>{-1, 2, -1, -1, -1, -1, -1, -1, 0}));

  Mesh keep = m;
  compact(keep, 2); // the first two points stay, used or not
  EXPECT_EQ(keep.x, (std::vector<double>{0, 5, 1, 1, 0}));
  EXPECT_EQ(keep.y, (std::vector<double>{0, 5, 0, 1, 1}));
  EXPECT_EQ(keep.v, (std::vector<std::int32_t>{0, 2, 3, 0, 3, 4}));
  EXPECT_EQ(keep.n, (std::vector<std::int32_t>{-1, 1, -1, -1, -1, 0}));

  Mesh all = m;
  compact(all, 0);
  EXPECT_EQ(all.x, (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(all.y, (std::vector<double>{0, 0, 1, 1}));
  EXPECT_EQ(all.v, (std::vector<std::int32_t>{0, 1, 2, 0, 2, 3}));
  EXPECT_EQ(all.n, (std::vector<std::int32_t>{-1, 1, -1, -1, -1, 0}));
  EXPECT_TRUE(check_triangulation(all, "m").ok()) << check_triangulation(all, "m").message();

  // More to keep than there are points: all of them.
  Mesh more = m;
  compact(more, 100);
  EXPECT_EQ(more.num_points(), 6);
  EXPECT_EQ(more.num_slots(), 2);
}

TEST(Mesh, Angles) {
  EXPECT_EQ(cos2_of_degrees(30), 0.75);
  EXPECT_DOUBLE_EQ(cos2_of_degrees(60), 0.25);
  EXPECT_DOUBLE_EQ(cos2_of_degrees(0), 1);
  Mesh m;
  // An equilateral triangle, a right isosceles one (45 degrees) and a
  // sliver (about 5.7 degrees).
  m.x = {0, 2, 1, 0, 1, 0, 10, 0};
  m.y = {0, 0, std::sqrt(3.0), 0, 0, 1, 0, 1};
  m.v = {0, 1, 2, 3, 4, 5, 3, 6, 7};
  EXPECT_EQ(count_bad(m, cos2_of_degrees(30)), 1);
  EXPECT_EQ(count_bad(m, cos2_of_degrees(50)), 2);
  EXPECT_EQ(count_bad(m, cos2_of_degrees(59)), 2);
  EXPECT_EQ(count_bad(m, cos2_of_degrees(5)), 0);
  m.v[6] = -1; // a free slot does not count
  EXPECT_EQ(count_bad(m, cos2_of_degrees(30)), 0);
}

} // namespace
} // namespace dd::dmr
