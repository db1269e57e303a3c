// Which load-balancing strategy a traversal runs (sssp.h, LoadBalance;
// docs/sssp.md, "Load balancing").
#include "sssp/sssp.h"

namespace dd::sssp {

// The device-wide search pays off graphs that are not road-like. Measured
// on an H100 (docs/PERF.md, "Load balancing"): near-far and bf-worklist were
// fastest with the search on Kronecker, uniform and wiki-Vote graphs (mean
// degree 12.5 to 32; 1.3-3.6x over TWC), and with the warp scan on road
// networks and meshes (mean 2.1 to 3.8), where the search's prefix sum per
// step (two more launches, and host steps) costs more than the balance
// gains: 2.7-5x slower than TWC there.

LoadBalance resolve_load_balance(const DeviceGraph &graph, LoadBalance lb) {
  using S = LoadBalance::Strategy;
  const double mean =
      graph.num_vertices() == 0 ? 0 : double(graph.num_edges()) / graph.num_vertices();
  if (lb.strategy == S::kAuto)
    lb.strategy = road_like(graph) ? S::kWarpScan : S::kSearch;
  if (lb.strategy == S::kWarpShuffle && lb.group == 0)
    lb.group = mean <= 4 ? 4 : mean <= 8 ? 8 : mean <= 16 ? 16 : 32;
  return lb;
}

Status check_not_flat_scan(const LoadBalance &lb, const char *algo) {
  if (lb.strategy == LoadBalance::Strategy::kFlatScan)
    return Status::error(std::string(algo) + " cannot run --lb=flat-scan: it is ADDS's own "
                                             "expansion (adds, bfs-adds)");
  return Status();
}

std::string load_balance_name(const LoadBalance &lb) {
  switch (lb.strategy) {
  case LoadBalance::Strategy::kAuto:
    return "auto";
  case LoadBalance::Strategy::kTwc:
    return "twc";
  case LoadBalance::Strategy::kWarpShuffle:
    return lb.group == 0 ? "warp" : "warp" + std::to_string(lb.group);
  case LoadBalance::Strategy::kWarpScan:
    return "scan";
  case LoadBalance::Strategy::kSearch:
    return "search";
  case LoadBalance::Strategy::kFlatScan:
    return "flat-scan";
  }
  return "?";
}

} // namespace dd::sssp
