#include "graph/max_flow.h"

#include <algorithm>
#include <limits>

namespace dd::graph {
namespace {

constexpr std::uint32_t kNoLevel = std::numeric_limits<std::uint32_t>::max();

// "arc 3 ('a 2 5 10')": the position among the arcs and the DIMACS line.
std::string describe_arc(const FlowNetwork& net, std::uint64_t i) {
  return str_cat("arc ", i + 1, " ('a ", std::uint64_t{net.arc_tail(i)} + 1, ' ',
                 std::uint64_t{net.arc_head(i)} + 1, ' ', net.arc_capacity(i), "')");
}

// BFS levels from the source over residual arcs with capacity left; true when
// the sink is reached.
bool build_levels(const FlowNetwork& net, const std::vector<Capacity>& residual,
                  std::vector<std::uint32_t>& level, std::vector<VertexId>& queue) {
  std::fill(level.begin(), level.end(), kNoLevel);
  queue.clear();
  level[net.source] = 0;
  queue.push_back(net.source);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const VertexId v = queue[head];
    if (v == net.sink)
      return true;  // deeper levels cannot lie on a shortest path
    for (EdgeIndex e = net.row_offsets[v]; e < net.row_offsets[v + 1]; ++e) {
      const VertexId w = net.heads[e];
      if (residual[e] > 0 && level[w] == kNoLevel) {
        level[w] = level[v] + 1;
        queue.push_back(w);
      }
    }
  }
  return false;
}

} // namespace

Expected<MaxFlowResult> max_flow_dinic(const FlowNetwork& net) {
  if (Status s = validate(net); !s.ok())
    return Status::error("invalid flow network: " + s.message());
  const std::uint64_t n = net.num_vertices();
  // Each residual pair holds at most its arc's capacity, so int32 suffices.
  std::vector<Capacity> residual(net.capacities);
  std::vector<std::uint32_t> level(n);
  std::vector<EdgeIndex> current(n);
  std::vector<VertexId> queue;
  queue.reserve(n);
  std::vector<EdgeIndex> path;
  std::int64_t total = 0;

  while (build_levels(net, residual, level, queue)) {
    std::copy(net.row_offsets.begin(), net.row_offsets.end() - 1, current.begin());
    path.clear();
    VertexId v = net.source;
    for (;;) {
      if (v == net.sink) {
        Capacity bottleneck = kMaxCapacity;
        for (EdgeIndex e : path)
          bottleneck = std::min(bottleneck, residual[e]);
        for (EdgeIndex e : path) {
          residual[e] -= bottleneck;
          residual[net.twins[e]] += bottleneck;
        }
        total += bottleneck;
        // Resume from the tail of the first saturated arc.
        std::size_t keep = 0;
        while (residual[path[keep]] > 0)
          ++keep;
        path.resize(keep);
        v = keep == 0 ? net.source : net.heads[path[keep - 1]];
        continue;
      }
      // Advance along the current arc if it is admissible.
      const EdgeIndex end = net.row_offsets[v + 1];
      EdgeIndex& e = current[v];
      while (e < end && !(residual[e] > 0 && level[net.heads[e]] == level[v] + 1))
        ++e;
      if (e < end) {
        path.push_back(e);
        v = net.heads[e];
        continue;
      }
      // A dead end: nothing more passes through v in this phase.
      level[v] = kNoLevel;
      if (path.empty())
        break;
      const EdgeIndex back = path.back();
      path.pop_back();
      v = net.heads[net.twins[back]];
      ++current[v];
    }
  }

  MaxFlowResult result;
  result.value = total;
  result.flows.resize(net.num_arcs());
  for (std::uint64_t i = 0; i < net.num_arcs(); ++i)
    result.flows[i] = residual[net.twins[net.arcs[i]]];
  return result;
}

Expected<std::int64_t> verify_flow(const FlowNetwork& net, const std::vector<std::int64_t>& flows) {
  if (Status s = validate(net); !s.ok())
    return Status::error("invalid flow network: " + s.message());
  if (flows.size() != net.num_arcs())
    return Status::error(str_cat(flows.size(), " flows for ", net.num_arcs(), " arcs"));
  // excess[v] = inflow - outflow.
  std::vector<std::int64_t> excess(net.num_vertices(), 0);
  for (std::uint64_t i = 0; i < net.num_arcs(); ++i) {
    const std::int64_t f = flows[i];
    if (f < 0)
      return Status::error(str_cat(describe_arc(net, i), ": negative flow ", f));
    if (f > net.arc_capacity(i))
      return Status::error(str_cat(describe_arc(net, i), ": flow ", f,
                                   " exceeds the capacity"));
    excess[net.arc_tail(i)] -= f;
    excess[net.arc_head(i)] += f;
  }
  for (std::uint64_t v = 0; v < net.num_vertices(); ++v)
    if (v != net.source && v != net.sink && excess[v] != 0)
      return Status::error(str_cat("vertex ", v + 1, ": flow is not conserved (inflow - outflow = ",
                                   excess[v], ")"));
  return -excess[net.source];
}

Expected<std::int64_t> min_cut_capacity(const FlowNetwork& net,
                                        const std::vector<std::int64_t>& flows) {
  if (flows.size() != net.num_arcs())
    return Status::error(str_cat(flows.size(), " flows for ", net.num_arcs(), " arcs"));
  // Residual capacity left on each residual arc: c - f forward, f backward.
  std::vector<std::int64_t> residual(net.num_residual_arcs(), 0);
  for (std::uint64_t i = 0; i < net.num_arcs(); ++i) {
    residual[net.arcs[i]] = net.arc_capacity(i) - flows[i];
    residual[net.twins[net.arcs[i]]] = flows[i];
  }
  std::vector<std::uint32_t> level(net.num_vertices(), kNoLevel);
  std::vector<VertexId> queue;
  level[net.source] = 0;
  queue.push_back(net.source);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const VertexId v = queue[head];
    for (EdgeIndex e = net.row_offsets[v]; e < net.row_offsets[v + 1]; ++e) {
      const VertexId w = net.heads[e];
      if (residual[e] > 0 && level[w] == kNoLevel) {
        level[w] = level[v] + 1;
        queue.push_back(w);
      }
    }
  }
  if (level[net.sink] != kNoLevel)
    return Status::error(str_cat("the flow is not maximum: an augmenting path of ",
                                 level[net.sink], " arcs leads from the source (vertex ",
                                 std::uint64_t{net.source} + 1, ") to the sink (vertex ",
                                 std::uint64_t{net.sink} + 1, ")"));
  // The cut (S, V \ S), S the vertices the source still reaches. Input
  // capacities fit 2^31, so the sum of at most 2^32 of them fits int64.
  std::int64_t capacity = 0;
  for (std::uint64_t i = 0; i < net.num_arcs(); ++i)
    if (level[net.arc_tail(i)] != kNoLevel && level[net.arc_head(i)] == kNoLevel)
      capacity += net.arc_capacity(i);
  return capacity;
}

Status check_maximum(const FlowNetwork& net, const std::vector<std::int64_t>& flows) {
  Expected<std::int64_t> cut = min_cut_capacity(net, flows);
  return cut.ok() ? Status() : cut.status();
}

Status certify_max_flow(const FlowNetwork& net, const std::vector<std::int64_t>& flows,
                        std::int64_t value) {
  Expected<std::int64_t> carried = verify_flow(net, flows);
  if (!carried.ok())
    return carried.status();
  if (*carried != value)
    return Status::error(str_cat("the arcs' flows carry ", *carried, ", not the ", value, " reported"));
  Expected<std::int64_t> cut = min_cut_capacity(net, flows);
  if (!cut.ok())
    return cut.status();
  if (*cut != value)
    return Status::error(str_cat("the flow is ", value,
                                 ", the cut the source's residual reach leaves has capacity ", *cut));
  return Status();
}

} // namespace dd::graph
