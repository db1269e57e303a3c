// GPU minimum spanning forest: Boruvka's algorithm with component locks, the
// dissertation's MST benchmark (LonestarGPU 3.0's Boruvka; docs/mst.md).
//
//   dd::mst::DeviceGraph g;
//   if (Status s = g.upload(csr); !s.ok()) ...
//   Expected<Result> r = dd::mst::locks::boruvka(g);     // as written
//   Expected<Result> r = dd::mst::delegate::boruvka(g);  // through the delegate pass
//   r->weight, r->edges                                  // the forest
//
// The two entry points are one source, apps/mst/boruvka.cu, compiled twice:
// as written (namespace dd::mst::locks) and rewritten at build time by
// `decoupler --passes=delegate` (namespace dd::mst::delegate), whose launcher
// chooses between the delegated kernels and the original by
// DD_DELEGATE_POLICY (docs/delegate-pass.md).
//
// The graph is read as undirected, as graph/mst.h reads it: u -> v and
// v -> u are the edge {u, v}; parallel copies are one edge of the lightest
// weight; self loops are ignored. Weights are int32 (an unweighted graph
// weighs 1 per edge); float weights are an error.
//
// Plain C++17 (no CUDA types), so the command and tests can include it.
#ifndef DD_MST_MST_H
#define DD_MST_MST_H

#include <cstdint>
#include <vector>

#include "graph/csr.h"
#include "graph/errors.h"
#include "graph/mst.h"

namespace dd::mst {

using graph::Expected;
using graph::Status;
using graph::VertexId;

/// The graph as Boruvka reads it: the undirected edges, each once (lo < hi,
/// the lightest of its parallel copies), and a symmetric adjacency whose
/// entries name the undirected edge, so that both directions of an edge have
/// one id and the order on (weight, edge id) is a strict total order on
/// undirected edges (ties then cannot close a cycle).
struct UndirectedGraph {
  std::uint32_t num_vertices = 0;
  std::vector<VertexId> edge_lo, edge_hi;  ///< per undirected edge, lo < hi
  std::vector<std::uint32_t> edge_weight;  ///< per undirected edge
  std::vector<std::uint32_t> row_offsets;  ///< num_vertices + 1
  std::vector<VertexId> adj_vertex;        ///< 2 * edges: the neighbour
  std::vector<std::uint32_t> adj_edge;     ///< 2 * edges: the undirected edge id

  std::uint32_t num_edges() const { return static_cast<std::uint32_t>(edge_lo.size()); }
};

/// Builds the undirected graph of `csr` in O(V + E) plus a sort of each
/// vertex's higher neighbours. Errors on an invalid graph, float weights,
/// or a graph too big for 32-bit adjacency indices (2 * edges >= 2^32).
Expected<UndirectedGraph> make_undirected(const graph::Csr &csr);

/// The undirected graph in device memory, owned. Move-only.
class DeviceGraph {
public:
  DeviceGraph() = default;
  DeviceGraph(const DeviceGraph &) = delete;
  DeviceGraph &operator=(const DeviceGraph &) = delete;
  ~DeviceGraph();

  /// make_undirected(csr), copied to the device. Errors as make_undirected
  /// does, or on a CUDA failure (the message names the call).
  Status upload(const graph::Csr &csr);

  const UndirectedGraph &host() const { return host_; }
  std::uint32_t num_vertices() const { return host_.num_vertices; }
  std::uint32_t num_edges() const { return host_.num_edges(); }

  // Device pointers (null for an empty graph or one without edges).
  const std::uint32_t *row_offsets() const { return row_offsets_; }
  const VertexId *adj_vertex() const { return adj_vertex_; }
  const std::uint32_t *adj_edge() const { return adj_edge_; }
  const VertexId *edge_lo() const { return edge_lo_; }
  const VertexId *edge_hi() const { return edge_hi_; }
  const std::uint32_t *edge_weight() const { return edge_weight_; }

private:
  void release();

  UndirectedGraph host_;
  std::uint32_t *row_offsets_ = nullptr;
  VertexId *adj_vertex_ = nullptr;
  std::uint32_t *adj_edge_ = nullptr;
  VertexId *edge_lo_ = nullptr;
  VertexId *edge_hi_ = nullptr;
  std::uint32_t *edge_weight_ = nullptr;
};

/// What a run returns.
struct Result {
  /// The forest's edges (u < v), in the order of their undirected edge ids.
  std::vector<graph::MstEdge> edges;
  std::uint64_t weight = 0;    ///< the sum of the edges' weights
  std::uint64_t num_trees = 0; ///< num_vertices - edges.size()
  /// GPU time in milliseconds, by CUDA events, from the first launch to the
  /// end of the last, including the host's reads of the per-round counters
  /// between launches; excluding allocation, the upload and the copy back.
  double ms = 0;
  std::uint64_t rounds = 0;   ///< Boruvka rounds that hooked a component
  std::uint64_t launches = 0; ///< kernel launches
  /// Stopped at the time limit before the forest was complete: ms is the
  /// GPU time spent (at least the limit, a lower bound of the run's), edges
  /// and weight are empty.
  bool unfinished = false;
};

// One entry point per build of boruvka.cu (docs/mst.md). Each call
// allocates its own working memory, so calls are independent and may be
// repeated (warm-up, timing). With time_limit_ms > 0 a run stops once it
// has taken that much GPU time, inside a round too, unfinished (the kernel
// as written takes minutes a run, and a round, on rmat22): its round's
// kernel may then still run, so its memory stays allocated and the caller
// must not free device memory or synchronize (dd-mst exits at once).
namespace locks {
/// Boruvka as written: global try-lock component locks.
Expected<Result> boruvka(const DeviceGraph &graph, double time_limit_ms = 0);
} // namespace locks
namespace delegate {
/// The same source through `decoupler --passes=delegate`.
Expected<Result> boruvka(const DeviceGraph &graph, double time_limit_ms = 0);
} // namespace delegate

} // namespace dd::mst

#endif // DD_MST_MST_H
