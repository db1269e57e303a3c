// The host side of push-relabel: the initial preflow and the global relabel.
#include "maxflow/global_relabel.h"

namespace dd::maxflow {

void initial_preflow(const graph::FlowNetwork &network, std::vector<std::int32_t> &residual,
                     std::vector<long long> &excess) {
  residual = network.capacities;
  excess.assign(network.num_vertices(), 0);
  const graph::VertexId s = network.source;
  for (graph::EdgeIndex a = network.row_offsets[s]; a < network.row_offsets[s + 1]; ++a) {
    const std::int32_t d = residual[a];
    if (d <= 0)
      continue;
    residual[a] = 0;
    residual[network.twins[a]] += d;
    excess[network.heads[a]] += d;
    excess[s] -= d;
  }
}

namespace {

// Breadth-first search from `root` backwards along residual arcs (v is a
// predecessor of w when v -> w has residual capacity, that is when the arc
// w -> v's twin does), giving unlabelled vertices base + distance.
void search_back(const graph::FlowNetwork &network, const std::vector<std::int32_t> &residual,
                 graph::VertexId root, std::uint32_t base, std::uint32_t unset,
                 std::vector<std::uint32_t> &height, std::vector<graph::VertexId> &queue) {
  queue.clear();
  queue.push_back(root);
  height[root] = base;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const graph::VertexId w = queue[i];
    for (graph::EdgeIndex a = network.row_offsets[w]; a < network.row_offsets[w + 1]; ++a) {
      const graph::VertexId v = network.heads[a];
      if (height[v] != unset || residual[network.twins[a]] <= 0)
        continue;
      height[v] = height[w] + 1;
      queue.push_back(v);
    }
  }
}

} // namespace

void global_relabel(const graph::FlowNetwork &network, const std::vector<std::int32_t> &residual,
                    bool second_phase, std::vector<std::uint32_t> &height) {
  const auto n = static_cast<std::uint32_t>(network.num_vertices());
  // A value no search gives: searches label below 2n.
  const std::uint32_t unset = 2 * n + 1;
  height.assign(n, unset);
  // The source keeps its height n: it is never searched through.
  height[network.source] = n;
  std::vector<graph::VertexId> queue;
  queue.reserve(n);
  search_back(network, residual, network.sink, 0, unset, height, queue);
  if (second_phase) {
    height[network.source] = unset;
    search_back(network, residual, network.source, n, unset, height, queue);
  }
  const std::uint32_t cap = second_phase ? 2 * n : n;
  for (std::uint32_t &h : height)
    if (h == unset)
      h = cap;
}

} // namespace dd::maxflow
