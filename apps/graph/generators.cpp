#include "graph/generators.h"

#include <cmath>

#include "graph/edge_list.h"
#include "graph/file.h"
#include "graph/random.h"

namespace dd::graph {
namespace {

// Distinct streams from one seed: every random choice is hash64(seed ^ stream,
// counter), so each edge or vertex draws independently of the others.
constexpr std::uint64_t kEdgeStream = 0x4b524f4e45434b52ull;     // "KRONECKR"
constexpr std::uint64_t kPermuteStream = 0x5045524d55544521ull;  // "PERMUTE!"
constexpr std::uint64_t kShortcutStream = 0x53484f5254435554ull; // "SHORTCUT"
constexpr std::uint64_t kLevelStream = 0x524c475f4c45564cull;    // "RLG_LEVL"

// An error when `generated` edges (doubled when undirected) over `n` vertices
// cannot fit in memory: the edge list (8 bytes an edge) and the CSR (8 bytes a
// vertex, 4 an edge) live at the same time.
Status size_problem(std::uint64_t n, std::uint64_t generated, bool undirected) {
  if (generated > (std::uint64_t{1} << 40))
    return Status::error(str_cat(generated, " edges are more than this generator makes (2^40)"));
  const std::uint64_t stored = undirected ? 2 * generated : generated;
  const std::uint64_t bytes = 8 * generated + 8 * (n + 1) + 4 * stored;
  const std::uint64_t memory = physical_memory_bytes();
  if (memory != 0 && bytes > memory)
    return Status::error(str_cat("the graph needs about ", bytes, " bytes, more than the ",
                                 memory, " bytes of memory"));
  return Status();
}

bool is_probability(double p) { return p >= 0.0 && p <= 1.0; }

} // namespace

Expected<Csr> generate_kronecker(const KroneckerParams& p) {
  if (p.scale < 1 || p.scale > 31)
    return Status::error(str_cat("kronecker: scale ", p.scale, " is not in [1, 31]"));
  if (p.edge_factor < 1)
    return Status::error("kronecker: edge factor must be at least 1");
  if (!is_probability(p.a) || !is_probability(p.b) || !is_probability(p.c) ||
      p.a + p.b + p.c > 1.0 + 1e-12)
    return Status::error(str_cat("kronecker: a, b, c must be probabilities with a + b + c <= 1 "
                                 "(got ", std::to_string(p.a), ", ", std::to_string(p.b), ", ",
                                 std::to_string(p.c), ")"));
  const std::uint64_t n = std::uint64_t{1} << p.scale;
  const std::uint64_t m = static_cast<std::uint64_t>(p.edge_factor) << p.scale;
  if (Status s = size_problem(n, m, p.undirected); !s.ok())
    return Status::error("kronecker: " + s.message());

  const double ab = p.a + p.b;
  const double abc = ab + p.c;
  EdgeList edges;
  edges.sources.resize(m);
  edges.destinations.resize(m);
  for (std::uint64_t e = 0; e < m; ++e) {
    // Descend the recursive matrix one bit of (u, v) per level, choosing a
    // quadrant with probabilities a (0,0), b (0,1), c (1,0), d (1,1).
    // Each 64-bit hash gives two 32-bit uniforms (levels 2k and 2k + 1):
    // 2^-32 resolution is far finer than the probabilities need, and it
    // halves the hashing that dominates generation time.
    const std::uint64_t edge_key = hash64(p.seed ^ kEdgeStream, e);
    std::uint64_t u = 0, v = 0;
    std::uint64_t bits = 0;
    for (std::uint32_t bit = 0; bit < p.scale; ++bit) {
      if (bit % 2 == 0)
        bits = hash64(edge_key + bit * 0x9e3779b97f4a7c15ull);
      else
        bits <<= 32;
      const double r = static_cast<double>(bits >> 32) * (1.0 / 4294967296.0);
      if (r >= abc) {
        u |= std::uint64_t{1} << bit;
        v |= std::uint64_t{1} << bit;
      } else if (r >= ab) {
        u |= std::uint64_t{1} << bit;
      } else if (r >= p.a) {
        v |= std::uint64_t{1} << bit;
      }
    }
    edges.sources[e] = static_cast<VertexId>(u);
    edges.destinations[e] = static_cast<VertexId>(v);
  }

  if (p.permute) {
    // Fisher-Yates with one sequential stream: deterministic for the seed.
    std::vector<VertexId> label(n);
    for (std::uint64_t v = 0; v < n; ++v)
      label[v] = static_cast<VertexId>(v);
    Xoshiro256 rng(p.seed ^ kPermuteStream);
    for (std::uint64_t i = n - 1; i > 0; --i) {
      const std::uint64_t j = rng.below(i + 1);
      std::swap(label[i], label[j]);
    }
    for (std::uint64_t e = 0; e < m; ++e) {
      edges.sources[e] = label[edges.sources[e]];
      edges.destinations[e] = label[edges.destinations[e]];
    }
  }
  return build_csr(edges, n, p.undirected);
}

Expected<Csr> generate_uniform(const UniformParams& p) {
  if (p.num_vertices < 1 || p.num_vertices > kMaxVertices)
    return Status::error(str_cat("uniform: vertex count ", p.num_vertices, " is not in [1, ",
                                 kMaxVertices, "]"));
  if (Status s = size_problem(p.num_vertices, p.num_edges, p.undirected); !s.ok())
    return Status::error("uniform: " + s.message());
  const std::uint64_t n = p.num_vertices;
  EdgeList edges;
  edges.sources.resize(p.num_edges);
  edges.destinations.resize(p.num_edges);
  for (std::uint64_t e = 0; e < p.num_edges; ++e) {
    // Modulo bias is at most n / 2^64: immeasurable.
    edges.sources[e] = static_cast<VertexId>(hash64(p.seed ^ kEdgeStream, 2 * e) % n);
    edges.destinations[e] = static_cast<VertexId>(hash64(p.seed ^ kEdgeStream, 2 * e + 1) % n);
  }
  return build_csr(edges, n, p.undirected);
}

Expected<Csr> generate_grid(const GridParams& p) {
  const std::uint64_t rows = p.rows;
  const std::uint64_t cols = p.cols;
  const std::uint64_t n = rows * cols;
  if (rows < 1 || cols < 1 || n > kMaxVertices)
    return Status::error(str_cat("grid: ", rows, " x ", cols, " is not in [1, ", kMaxVertices,
                                 "] vertices"));
  if (!is_probability(p.remove_probability) || !is_probability(p.shortcut_probability))
    return Status::error("grid: remove and shortcut probabilities must be in [0, 1]");
  if (Status s = size_problem(n, 3 * n, p.undirected); !s.ok())
    return Status::error("grid: " + s.message());

  EdgeList edges;
  edges.reserve(2 * n + static_cast<std::uint64_t>(p.shortcut_probability * n) + 16);
  const std::uint64_t stream = p.seed ^ kEdgeStream;
  const std::int64_t radius = p.shortcut_radius;
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      const std::uint64_t id = r * cols + c;
      const auto u = static_cast<VertexId>(id);
      if (c + 1 < cols && to_unit_double(hash64(stream, 3 * id)) >= p.remove_probability)
        edges.add(u, static_cast<VertexId>(id + 1));
      if (r + 1 < rows && to_unit_double(hash64(stream, 3 * id + 1)) >= p.remove_probability)
        edges.add(u, static_cast<VertexId>(id + cols));
      if (radius > 0 && to_unit_double(hash64(stream, 3 * id + 2)) < p.shortcut_probability) {
        // A random vertex in the (2 radius + 1)^2 window other than itself and
        // its grid neighbours; a few tries suffice except on tiny grids, where
        // the shortcut is skipped.
        Xoshiro256 rng(hash64(p.seed ^ kShortcutStream, id));
        for (int attempt = 0; attempt < 16; ++attempt) {
          const std::int64_t dr = static_cast<std::int64_t>(rng.below(2 * radius + 1)) - radius;
          const std::int64_t dc = static_cast<std::int64_t>(rng.below(2 * radius + 1)) - radius;
          const std::int64_t tr = static_cast<std::int64_t>(r) + dr;
          const std::int64_t tc = static_cast<std::int64_t>(c) + dc;
          // Not itself and not a grid neighbour: a shortcut is a new link.
          if ((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc) <= 1 || tr < 0 || tc < 0 ||
              tr >= static_cast<std::int64_t>(rows) || tc >= static_cast<std::int64_t>(cols))
            continue;
          const std::uint64_t target = static_cast<std::uint64_t>(tr) * cols +
                                       static_cast<std::uint64_t>(tc);
          edges.add(u, static_cast<VertexId>(target));
          break;
        }
      }
    }
  }
  return build_csr(edges, n, p.undirected);
}

Expected<FlowNetwork> generate_rlg(const RlgParams& p) {
  const std::uint64_t rows = p.rows;
  const std::uint64_t cols = p.cols;
  if (rows < 2 || cols < 2)
    return Status::error(str_cat("rlg: ", rows, " x ", cols,
                                 " is degenerate (at least 2 rows and 2 columns)"));
  const std::uint64_t n = rows * cols + 2;
  if (n > kMaxVertices)
    return Status::error(str_cat("rlg: ", rows, " x ", cols, " + 2 vertices is more than ",
                                 kMaxVertices));
  if (p.max_capacity < 1 || p.max_capacity > kMaxCapacity / 3)
    return Status::error(str_cat("rlg: maximum capacity ", p.max_capacity, " is not in [1, ",
                                 kMaxCapacity / 3, "] (source and sink arcs get 3 times it)"));
  const std::uint64_t fanout = rows < 3 ? rows : 3;
  const std::uint64_t m = 2 * rows + fanout * rows * (cols - 1);
  // The arc list (12 bytes an arc) and the network (40 bytes an arc, 8 a
  // vertex) live at the same time.
  const std::uint64_t bytes = 52 * m + 8 * n;
  const std::uint64_t memory = physical_memory_bytes();
  if (memory != 0 && bytes > memory)
    return Status::error(str_cat("rlg: the network needs about ", bytes, " bytes, more than the ",
                                 memory, " bytes of memory"));

  const Capacity big = 3 * p.max_capacity;
  const auto vertex = [rows](std::uint64_t level, std::uint64_t row) {
    return static_cast<VertexId>(1 + level * rows + row);
  };
  ArcList arcs;
  arcs.reserve(m);
  for (std::uint64_t j = 0; j < rows; ++j)
    arcs.add(0, vertex(0, j), big);
  for (std::uint64_t i = 0; i + 1 < cols; ++i) {
    for (std::uint64_t j = 0; j < rows; ++j) {
      // One stream per vertex: the targets (distinct, by rejection), then the
      // capacities, independent of every other vertex's draws.
      const VertexId u = vertex(i, j);
      Xoshiro256 rng(hash64(p.seed ^ kLevelStream, u));
      std::uint64_t target[3];
      for (std::uint64_t k = 0; k < fanout;) {
        target[k] = rng.below(rows);
        bool repeated = false;
        for (std::uint64_t q = 0; q < k; ++q)
          repeated = repeated || target[q] == target[k];
        if (!repeated)
          ++k;
      }
      for (std::uint64_t k = 0; k < fanout; ++k)
        arcs.add(u, vertex(i + 1, target[k]),
                 static_cast<Capacity>(1 + rng.below(static_cast<std::uint64_t>(p.max_capacity))));
    }
  }
  const auto sink = static_cast<VertexId>(n - 1);
  for (std::uint64_t j = 0; j < rows; ++j)
    arcs.add(vertex(cols - 1, j), sink, big);
  return build_flow_network(arcs, n, 0, sink);
}

} // namespace dd::graph
