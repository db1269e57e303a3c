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
//
//   rlg        a max-flow network (FlowNetwork, not a Csr): the Washington
//              generator's "random level graph" (see generate_rlg()).
#ifndef DD_GRAPH_GENERATORS_H
#define DD_GRAPH_GENERATORS_H

#include <cstdint>

#include "graph/csr.h"
#include "graph/errors.h"
#include "graph/flow_network.h"

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

struct RlgParams {
  std::uint32_t rows = 64;   ///< vertices per level, >= 2
  std::uint32_t cols = 64;   ///< levels, >= 2; rows * cols + 2 <= kMaxVertices
  Capacity max_capacity = 10000;  ///< mesh arcs get capacities in [1, max], 3 * max <= kMaxCapacity
  std::uint64_t seed = 1;
};

/// The random level graph (RLG) of the Washington max-flow generator
/// (Anderson et al., DIMACS 1991; Cherkassky and Goldberg's WASH-RLG family):
/// cols levels of rows vertices each. 0-based ids: the source is 0, vertex
/// (level i, row j) is 1 + i * rows + j, the sink is rows * cols + 1 (the
/// original's numbering). The source has an arc of capacity 3 * max_capacity
/// to every vertex of level 0 and every vertex of the last level one to the
/// sink; every vertex of level i < cols - 1 has arcs to min(3, rows) distinct
/// vertices of level i + 1, chosen uniformly at random, each with a capacity
/// uniform in [1, max_capacity]. Arcs: 2 rows + min(3, rows) rows (cols - 1).
/// Arc order: source arcs, then level by level, vertex by vertex, then sink
/// arcs. Deterministic for a seed (random.h), but not the original's numbers:
/// it drew from the C library's random(). docs/graphs.md lists the differences.
Expected<FlowNetwork> generate_rlg(const RlgParams& params);

} // namespace dd::graph

#endif // DD_GRAPH_GENERATORS_H
