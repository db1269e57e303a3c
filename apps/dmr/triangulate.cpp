// Random points in the unit square, Delaunay-triangulated by Bowyer-Watson
// insertion in exact integer arithmetic (triangulate.h).
//
// The points are inserted along a Hilbert curve, each located by a
// visibility walk from the last triangle made, so a walk crosses a few
// triangles and an insertion costs O(1) on these uniform inputs: a million
// points take about 0.7 s on one core (2M: 1.2 s).
#include "dmr/triangulate.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "graph/file.h"
#include "graph/random.h"

namespace dd::dmr {
namespace {

using graph::Expected;
using graph::Status;
using graph::str_cat;

constexpr int kBits = 20;
constexpr std::int64_t kSide = std::int64_t{1} << kBits;
// 3 * (2 * (interior + 4) - 6) vertex slots fit in int32 (cavity.h's 3 * t).
static_assert(3 * (2 * (kMaxRandomPoints + 4) - 6) <= std::numeric_limits<std::int32_t>::max());
// What a point costs while the mesh is built, rounded up: its Hilbert key
// and lattice coordinates (8 + 8), its doubles (16), the insertion's fan
// table (4) and two triangles' vertices, neighbours and cavity stamps
// (2 * 28).
constexpr std::uint64_t kBytesPerPoint = 100;

// The distance along the Hilbert curve of order kBits through (x, y).
std::uint64_t hilbert_index(std::uint32_t x, std::uint32_t y) {
  std::uint64_t d = 0;
  for (std::uint32_t s = kSide / 2; s > 0; s /= 2) {
    const std::uint32_t rx = (x & s) ? 1 : 0;
    const std::uint32_t ry = (y & s) ? 1 : 0;
    d += std::uint64_t{s} * s * ((3 * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) {
        x = kSide - 1 - x;
        y = kSide - 1 - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

// The point at distance d along the curve (hilbert_index's inverse).
void hilbert_point(std::uint64_t d, std::uint32_t &x, std::uint32_t &y) {
  x = y = 0;
  for (std::uint32_t s = 1; s < kSide; s *= 2) {
    const std::uint32_t rx = 1 & static_cast<std::uint32_t>(d / 2);
    const std::uint32_t ry = 1 & static_cast<std::uint32_t>(d ^ rx);
    if (ry == 0) {
      if (rx == 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      std::swap(x, y);
    }
    x += s * rx;
    y += s * ry;
    d /= 4;
  }
}

// Bowyer-Watson over lattice points with exact predicates. Triangles use
// MeshView's layout (v, n; counter-clockwise; n[3t + i] across from
// v[3t + i]), so the result is the Mesh as is.
class Triangulator {
public:
  Triangulator(std::vector<std::int32_t> px, std::vector<std::int32_t> py)
      : px_(std::move(px)), py_(std::move(py)) {
    const std::size_t points = px_.size();
    const std::size_t triangles = 2 * points - 6;
    v_.reserve(3 * triangles);
    n_.reserve(3 * triangles);
    stamp_.reserve(triangles);
    fan_.assign(points, -1);
    // The square (points 0-3 counter-clockwise from the origin) cut along
    // its diagonal 0-2.
    v_ = {0, 1, 2, 0, 2, 3};
    n_ = {-1, 1, -1, -1, -1, 0};
    stamp_ = {-1, -1};
  }

  /// Inserts the points from 4 on, in their order; false if a cavity came
  /// out malformed (which exact predicates rule out).
  bool run() {
    for (std::int32_t p = 4; p < static_cast<std::int32_t>(px_.size()); ++p)
      if (!insert(p))
        return false;
    return true;
  }

  std::vector<std::int32_t> &v() { return v_; }
  std::vector<std::int32_t> &n() { return n_; }

private:
  struct Edge {
    std::int32_t a, b, out, out_edge;
  };

  // Twice the signed area of (a, b, c): exact in 64 bits (|d| <= 2^20).
  std::int64_t orient(std::int32_t a, std::int32_t b, std::int32_t c) const {
    const std::int64_t bx = px_[b] - px_[a], by = py_[b] - py_[a];
    const std::int64_t cx = px_[c] - px_[a], cy = py_[c] - py_[a];
    return bx * cy - by * cx;
  }

  // Whether p lies strictly inside the circle of triangle t: cavity.h's
  // incircle, exact in 128 bits (lifts below 2^41, products below 2^83).
  bool in_circle(std::int32_t t, std::int32_t p) const {
    const std::int32_t *tv = v_.data() + 3 * t;
    const std::int64_t adx = px_[tv[0]] - px_[p], ady = py_[tv[0]] - py_[p];
    const std::int64_t bdx = px_[tv[1]] - px_[p], bdy = py_[tv[1]] - py_[p];
    const std::int64_t cdx = px_[tv[2]] - px_[p], cdy = py_[tv[2]] - py_[p];
    const __int128 alift = adx * adx + ady * ady;
    const __int128 blift = bdx * bdx + bdy * bdy;
    const __int128 clift = cdx * cdx + cdy * cdy;
    const __int128 det = alift * (bdx * cdy - bdy * cdx) + blift * (cdx * ady - cdy * adx) +
                         clift * (adx * bdy - ady * bdx);
    return det > 0;
  }

  // A triangle holding p (on its boundary possibly): a visibility walk
  // from the last triangle made. Delaunay triangulations admit no cycle in
  // such a walk; the edge tried first rotates all the same.
  std::int32_t locate(std::int32_t p) {
    std::int32_t t = last_;
    for (;;) {
      std::int32_t next = -1;
      const std::uint32_t r = rotate_++ % 3;
      for (std::uint32_t k = 0; k < 3 && next < 0; ++k) {
        const std::uint32_t i = (k + r) % 3;
        if (orient(v_[3 * t + (i + 1) % 3], v_[3 * t + (i + 2) % 3], p) < 0)
          next = n_[3 * t + i];
      }
      if (next < 0)
        return t; // inside (the square holds p, so a boundary edge is never crossed)
      t = next;
    }
  }

  bool insert(std::int32_t p) {
    const std::int32_t in = 2 * p, out = 2 * p + 1; // stamps of this insertion
    const std::int32_t first = locate(p);
    cavity_.clear();
    cavity_.push_back(first);
    stamp_[first] = in;
    // The connected triangles whose circle strictly holds p. A point on an
    // edge is strictly inside the circle of both triangles of that edge,
    // and an edge whose far triangle stays out is strictly visible from p,
    // so the fan below has no triangle of zero area.
    for (std::size_t q = 0; q < cavity_.size(); ++q) {
      const std::int32_t t = cavity_[q];
      for (int i = 0; i < 3; ++i) {
        const std::int32_t u = n_[3 * t + i];
        if (u < 0 || stamp_[u] == in || stamp_[u] == out)
          continue;
        if (in_circle(u, p)) {
          stamp_[u] = in;
          cavity_.push_back(u);
        } else {
          stamp_[u] = out;
        }
      }
    }
    // Its boundary, counter-clockwise seen from inside, with the triangle
    // beyond each edge and the edge's index there (read before any slot is
    // rewritten).
    edges_.clear();
    for (const std::int32_t t : cavity_)
      for (int i = 0; i < 3; ++i) {
        const std::int32_t u = n_[3 * t + i];
        if (u >= 0 && stamp_[u] == in)
          continue;
        std::int32_t j = -1;
        if (u >= 0)
          j = n_[3 * u] == t ? 0 : n_[3 * u + 1] == t ? 1 : 2;
        edges_.push_back({v_[3 * t + (i + 1) % 3], v_[3 * t + (i + 2) % 3], u, j});
      }
    // A disk of k triangles with every vertex on its boundary.
    if (edges_.size() != cavity_.size() + 2)
      return false;

    // The fan: the cavity's slots, then two new ones.
    slots_.assign(cavity_.begin(), cavity_.end());
    for (int k = 0; k < 2; ++k) {
      slots_.push_back(static_cast<std::int32_t>(v_.size() / 3));
      v_.insert(v_.end(), 3, -1);
      n_.insert(n_.end(), 3, -1);
      stamp_.push_back(-1);
    }
    for (std::size_t e = 0; e < edges_.size(); ++e)
      fan_[edges_[e].a] = slots_[e];
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      const Edge &edge = edges_[e];
      const std::int32_t s = slots_[e];
      // Across (b, p): the fan triangle starting at b, whose edge (p, b)
      // lies across from its vertex b (index 1).
      const std::int32_t after = fan_[edge.b];
      v_[3 * s + 0] = edge.a;
      v_[3 * s + 1] = edge.b;
      v_[3 * s + 2] = p;
      n_[3 * s + 0] = after;
      n_[3 * after + 1] = s;
      n_[3 * s + 2] = edge.out;
      if (edge.out >= 0)
        n_[3 * edge.out + edge.out_edge] = s;
    }
    last_ = slots_[0];
    return true;
  }

  std::vector<std::int32_t> px_, py_;
  std::vector<std::int32_t> v_, n_;
  // Per triangle: 2p when in the cavity of point p, 2p + 1 when tested and
  // left out; no clearing between insertions.
  std::vector<std::int32_t> stamp_;
  // Per point: the fan triangle whose outer edge starts there (valid during
  // one insertion).
  std::vector<std::int32_t> fan_;
  std::vector<std::int32_t> cavity_, slots_;
  std::vector<Edge> edges_;
  std::int32_t last_ = 0;
  std::uint32_t rotate_ = 0;
};

} // namespace

Expected<Mesh> random_square_mesh(std::int64_t interior, std::uint64_t seed) {
  if (interior < 0)
    return Status::error(str_cat("a mesh needs a non-negative number of points, not ", interior));
  // The lattice holds (2^20 - 1)^2 interior points; 32-bit triangle indices
  // run out long before.
  if (interior > kMaxRandomPoints)
    return Status::error(str_cat(interior, " points, more than the ", kMaxRandomPoints,
                                 " whose triangles 32-bit indices can number"));
  const std::uint64_t bytes = kBytesPerPoint * static_cast<std::uint64_t>(interior + 4);
  const std::uint64_t memory = graph::physical_memory_bytes();
  if (memory != 0 && bytes > memory)
    return Status::error(str_cat(interior, " points need about ", bytes, " bytes, more than the ",
                                 memory, " bytes of memory"));

  // Distinct points as Hilbert indices: draw, sort, drop repeats, draw as
  // many again until none is missing. Sorted, they are also the insertion
  // order (a point's predecessor is next to it).
  const std::size_t count = static_cast<std::size_t>(interior);
  std::vector<std::uint64_t> keys;
  keys.reserve(count);
  graph::Xoshiro256 rng(seed);
  while (keys.size() < count) {
    while (keys.size() < count) {
      const auto x = static_cast<std::uint32_t>(1 + rng.below(kSide - 1));
      const auto y = static_cast<std::uint32_t>(1 + rng.below(kSide - 1));
      keys.push_back(hilbert_index(x, y));
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }

  std::vector<std::int32_t> px(count + 4), py(count + 4);
  const std::int32_t side = static_cast<std::int32_t>(kSide);
  const std::int32_t corner_x[4] = {0, side, side, 0}, corner_y[4] = {0, 0, side, side};
  for (int c = 0; c < 4; ++c) {
    px[c] = corner_x[c];
    py[c] = corner_y[c];
  }
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t x, y;
    hilbert_point(keys[i], x, y);
    px[4 + i] = static_cast<std::int32_t>(x);
    py[4 + i] = static_cast<std::int32_t>(y);
  }
  keys = {};

  Mesh m;
  m.x.resize(count + 4);
  m.y.resize(count + 4);
  for (std::size_t i = 0; i < count + 4; ++i) {
    m.x[i] = static_cast<double>(px[i]) / static_cast<double>(kSide); // exact
    m.y[i] = static_cast<double>(py[i]) / static_cast<double>(kSide);
  }
  Triangulator tri(std::move(px), std::move(py));
  if (!tri.run())
    return Status::error("internal error: the triangulator made a cavity that is not a disk");
  m.v = std::move(tri.v());
  m.n = std::move(tri.n());
  const std::int64_t want = 2 * (interior + 4) - 6;
  if (m.num_slots() != want)
    return Status::error(str_cat("internal error: the triangulation has ", m.num_slots(),
                                 " triangles, not 2 * (", interior, " + 4) - 6 = ", want));
  return m;
}

} // namespace dd::dmr
