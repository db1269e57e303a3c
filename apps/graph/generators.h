// Synthetic graphs for benchmarks, deterministic for a seed on every platform
// (random.h): the same parameters give the identical Csr, edge order included.
//
//   kronecker  Graph500 / GAP "kron": 2^scale vertices, edge_factor * 2^scale
//              generated edges from the recursive matrix with A = 0.57,
//              B = C = 0.19, D = 0.05; vertex labels randomly permuted so that
//              high degree is not concentrated at low ids. Skewed degrees.
//   uniform    Erdos-Renyi G(n, m): m edges with both endpoints uniform.
//   grid       road-network-like: a rows x cols 4-neighbour grid with some
//              links removed and a few local shortcuts added. Low, near-uniform
//              degree and a large diameter, the opposite of kronecker.
//
// All three keep self loops and duplicate edges, as Graph500 and GAP do, and
// produce unweighted graphs; add weights with assign_uniform_weights().
#ifndef DD_GRAPH_GENERATORS_H
#define DD_GRAPH_GENERATORS_H

#include <cstdint>

#include "graph/csr.h"
#include "graph/errors.h"

namespace dd::graph {

struct KroneckerParams {
  std::uint32_t scale = 16;       ///< 2^scale vertices, 1 <= scale <= 31
  std::uint32_t edge_factor = 16; ///< generated edges per vertex (Graph500 uses 16)
  double a = 0.57, b = 0.19, c = 0.19;  ///< quadrant probabilities; d = 1 - a - b - c
  std::uint64_t seed = 1;
  /// Add both directions of every generated edge (Graph500 graphs are
  /// undirected); |E| is then 2 * edges - self loops.
  bool undirected = true;
  /// Randomly permute vertex labels (Graph500 does).
  bool permute = true;
};

/// A Kronecker (R-MAT) graph; errors on out-of-range parameters or a size
/// beyond memory.
Expected<Csr> generate_kronecker(const KroneckerParams& params);

struct UniformParams {
  std::uint64_t num_vertices = 1 << 16;  ///< 1 <= n <= kMaxVertices
  std::uint64_t num_edges = 1 << 20;     ///< generated edges
  std::uint64_t seed = 1;
  bool undirected = false;  ///< add both directions of every edge
};

/// A uniform random graph G(n, m).
Expected<Csr> generate_uniform(const UniformParams& params);

struct GridParams {
  std::uint32_t rows = 256;
  std::uint32_t cols = 256;               ///< rows * cols <= kMaxVertices
  double remove_probability = 0.05;       ///< each grid link dropped with this chance
  double shortcut_probability = 0.02;     ///< each vertex adds one shortcut with this chance
  std::uint32_t shortcut_radius = 2;      ///< shortcut ends lie within this many rows/cols
  std::uint64_t seed = 1;
  bool undirected = true;  ///< both directions of every link (roads are two-way)
};

/// A road-like 2-D grid: vertex (r, c) has id r * cols + c and links to its
/// right and lower neighbours unless removed; a vertex that draws a shortcut
/// links to a random vertex within shortcut_radius in both row and column that
/// is neither itself nor a grid neighbour (a diagonal or a longer local
/// link). Every degree is at most 4 plus the shortcuts at that vertex.
Expected<Csr> generate_grid(const GridParams& params);

} // namespace dd::graph

#endif // DD_GRAPH_GENERATORS_H
