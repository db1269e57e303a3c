#include "graph/reference.h"

#include <cmath>
#include <functional>
#include <queue>
#include <utility>

namespace dd::graph {
namespace {

Status check_source(const Csr& g, VertexId source) {
  if (source >= g.num_vertices())
    return Status::error(str_cat("source vertex ", source, " is out of range (", g.num_vertices(),
                                 " vertices)"));
  return Status();
}

// Dijkstra over any distance type; weight(e) gives the weight of edge e.
template <typename Distance, typename WeightOf>
std::vector<Distance> run_dijkstra(const Csr& g, VertexId source, Distance infinity,
                                   WeightOf weight) {
  std::vector<Distance> dist(g.num_vertices(), infinity);
  // Lazy deletion: a vertex may sit in the heap several times; stale entries
  // (larger than its settled distance) are skipped when popped. Simpler than
  // decrease-key and as fast in practice.
  using Entry = std::pair<Distance, VertexId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u])
      continue;
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const VertexId v = g.col_indices[e];
      const Distance candidate = d + weight(e);
      if (candidate < dist[v]) {
        dist[v] = candidate;
        heap.push({candidate, v});
      }
    }
  }
  return dist;
}

} // namespace

Expected<std::vector<std::uint64_t>> dijkstra(const Csr& g, VertexId source) {
  if (Status s = check_source(g, source); !s.ok())
    return s;
  if (g.weight_type == WeightType::kFloat32)
    return Status::error("dijkstra: the graph has float weights; use dijkstra_float");
  if (g.weight_type == WeightType::kInt32) {
    if (g.int_weights.size() != g.num_edges())
      return Status::error("dijkstra: weight array does not match the edges");
    for (std::int32_t w : g.int_weights)
      if (w < 0)
        return Status::error(str_cat("dijkstra: negative weight ", w));
    return run_dijkstra<std::uint64_t>(g, source, kInfDistance, [&](EdgeIndex e) {
      return static_cast<std::uint64_t>(g.int_weights[e]);
    });
  }
  return run_dijkstra<std::uint64_t>(g, source, kInfDistance,
                                     [](EdgeIndex) { return std::uint64_t{1}; });
}

Expected<std::vector<double>> dijkstra_float(const Csr& g, VertexId source) {
  if (Status s = check_source(g, source); !s.ok())
    return s;
  const double inf = std::numeric_limits<double>::infinity();
  if (g.weight_type == WeightType::kFloat32) {
    if (g.float_weights.size() != g.num_edges())
      return Status::error("dijkstra: weight array does not match the edges");
    for (float w : g.float_weights)
      if (!(w >= 0) || std::isinf(w))
        return Status::error(str_cat("dijkstra: weight ", std::to_string(w),
                                     " is negative or not finite"));
    return run_dijkstra<double>(g, source, inf, [&](EdgeIndex e) {
      return static_cast<double>(g.float_weights[e]);
    });
  }
  if (g.weight_type == WeightType::kInt32) {
    if (g.int_weights.size() != g.num_edges())
      return Status::error("dijkstra: weight array does not match the edges");
    for (std::int32_t w : g.int_weights)
      if (w < 0)
        return Status::error(str_cat("dijkstra: negative weight ", w));
    return run_dijkstra<double>(g, source, inf, [&](EdgeIndex e) {
      return static_cast<double>(g.int_weights[e]);
    });
  }
  return run_dijkstra<double>(g, source, inf, [](EdgeIndex) { return 1.0; });
}

Expected<std::vector<std::uint32_t>> bfs(const Csr& g, VertexId source) {
  if (Status s = check_source(g, source); !s.ok())
    return s;
  std::vector<std::uint32_t> level(g.num_vertices(), kUnreachedLevel);
  // The frontier queue is the visit order itself: vertices are appended once,
  // when first reached, so `head` walks the levels in order.
  std::vector<VertexId> queue;
  queue.reserve(g.num_vertices());
  level[source] = 0;
  queue.push_back(source);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const VertexId u = queue[head];
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const VertexId v = g.col_indices[e];
      if (level[v] == kUnreachedLevel) {
        level[v] = level[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return level;
}

} // namespace dd::graph
