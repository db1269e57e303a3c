// bf-topo: topology-driven, atomic-free Bellman-Ford (Nasre, Burtscher,
// Pingali, "Atomic-free irregular computations on GPUs", section 4.1).
//
// One thread per edge, pushing: thread e reads dist[src(e)] and lowers
// dist[dst(e)] with dd::monotonic_min, a guarded plain store instead of
// atomicMin. Rounds repeat until one lowers nothing; an update lost to a
// racing store is redone in a later round, because the loser's candidate is
// still below the stored value then (dd/atomics.cuh explains why the fixed
// point is the same as with atomicMin).
//
// Why edges and push: one thread per edge gives every thread the same work
// whatever the degree distribution (a Kronecker hub would serialize a
// vertex-per-thread kernel), and reads the edge arrays (sources, destinations,
// weights) fully coalesced; the price is the 4 bytes per edge of the sources.
// Pulling (one thread per vertex over its in-edges) would need no atomics
// and no monotonic writes at all, but needs the transposed graph and has the
// hub imbalance on in-degrees; pushing is the variant whose races the
// monotonic write resolves, which is what this baseline is about.
#include "dd/atomics.cuh"
#include "sssp/common.cuh"

namespace dd::sssp {
namespace {

/// One round over all edges. `changed` is set to `round` when some distance
/// was lowered, so the host reads it without clearing it between rounds.
template <class Dist>
__global__ void __launch_bounds__(kBlockThreads)
    relax_all_edges(GraphView g, Dist *dist, unsigned round, unsigned *changed) {
  bool lowered = false;
  for (std::uint64_t e = blockIdx.x * std::uint64_t(kBlockThreads) + threadIdx.x;
       e < g.num_edges; e += std::uint64_t(gridDim.x) * kBlockThreads) {
    const Dist du = load_relaxed(dist[__ldg(&g.edge_sources[e])]);
    Dist candidate;
    if (du == kInf<Dist> || !add_distance(du, __ldg(&g.weights[e]), candidate))
      continue;
    Dist &dv = dist[__ldg(&g.col_indices[e])];
    // The load decides the flag; monotonic_min checks again as it stores. A
    // flag raised for a store that then loses only costs one more round.
    if (candidate < load_relaxed(dv)) {
      monotonic_min(&dv, candidate);
      lowered = true;
    }
  }
  if (__syncthreads_or(lowered) && threadIdx.x == 0)
    store_relaxed(*changed, round);
}

template <class Dist> Expected<Result> run(const DeviceGraph &graph, VertexId source) {
  const GraphView g = view(graph);
  if (g.edge_sources == nullptr)
    return Status::error("internal error: bf-topo needs the graph uploaded with edge sources");
  const std::uint32_t n = g.num_vertices;
  DeviceArray<Dist> dist;
  DeviceFlag changed; // the last round that lowered a distance
  GpuTimer timer;
  DD_SSSP_CUDA(dist.allocate(n));
  DD_SSSP_CUDA(changed.allocate());
  DD_SSSP_CUDA(timer.create());
  unsigned init_blocks = 0, relax_blocks = 0;
  DD_SSSP_CUDA(resident_blocks(init_distances<Dist>, init_blocks));
  DD_SSSP_CUDA(resident_blocks(relax_all_edges<Dist>, relax_blocks));

  Result result;
  result.wide_distances = sizeof(Dist) > 4;
  DD_SSSP_CUDA(timer.start());
  init_distances<Dist><<<blocks_for(n, init_blocks), kBlockThreads>>>(dist.data(), n, source);
  DD_SSSP_CUDA(cudaGetLastError());
  for (unsigned round = 1;; ++round) {
    relax_all_edges<Dist><<<blocks_for(g.num_edges, relax_blocks), kBlockThreads>>>(
        g, dist.data(), round, changed.device());
    DD_SSSP_CUDA(cudaGetLastError());
    unsigned last_change = 0;
    DD_SSSP_CUDA(changed.read(last_change));
    result.processed += n;
    ++result.launches;
    if (last_change != round)
      break;
  }
  return finish_run(timer, dist, result);
}

} // namespace

Expected<Result> bf_topo(const DeviceGraph &graph, VertexId source) {
  return graph.needs_wide_distances() ? run<unsigned long long>(graph, source)
                                      : run<unsigned>(graph, source);
}

} // namespace dd::sssp
