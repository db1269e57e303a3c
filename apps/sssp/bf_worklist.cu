// bf-worklist: data-driven Bellman-Ford. Each launch expands the vertices
// improved by the previous one (relax_frontier with a single pile) until a
// launch improves nothing. Without the near-far threshold a vertex can be
// expanded many times with ever smaller distances; that extra work, against
// the parallelism of large frontiers, is what near-far trades off.
#include "dd/worklist.cuh"
#include "sssp/common.cuh"
#include "sssp/relax.cuh"

namespace dd::sssp {
namespace {

template <class Dist>
Expected<Result> run(const DeviceGraph &graph, VertexId source, const LoadBalance &lb) {
  const std::uint32_t n = graph.num_vertices();
  DeviceArray<Dist> dist;
  DeviceArray<unsigned> mark;
  DoubleBuffer<VertexId> frontier;
  GpuTimer timer;
  DD_SSSP_CUDA(dist.allocate(n));
  DD_SSSP_CUDA(mark.allocate(n));
  DD_SSSP_CUDA(frontier.allocate(n)); // one push per vertex per launch
  DD_SSSP_CUDA(timer.create());
  unsigned init_blocks = 0;
  DD_SSSP_CUDA(resident_blocks(init_distances<Dist>, init_blocks));
  FrontierRelaxer<Dist> relaxer;
  if (Status s = relaxer.init(graph, lb); !s.ok())
    return s;

  Result result;
  result.wide_distances = sizeof(Dist) > 4;
  result.lb = load_balance_name(lb);
  DD_SSSP_CUDA(timer.start());
  init_distances<Dist><<<blocks_for(n, init_blocks), kBlockThreads>>>(dist.data(), n, source);
  DD_SSSP_CUDA(cudaGetLastError());
  DD_SSSP_CUDA(cudaMemsetAsync(mark.data(), 0, n * sizeof(unsigned)));
  DD_SSSP_CUDA(frontier.assign(&source, 1));
  Piles<Dist> piles{};
  piles.threshold = kInf<Dist>;
  piles.near_mark = mark.data();
  while (frontier.in_size() > 0) {
    const std::uint32_t size = frontier.in_size();
    piles.near = frontier.out();
    ++piles.near_epoch;
    if (Status s = relaxer.launch(dist.data(), frontier.in(), size, piles); !s.ok())
      return s;
    DD_SSSP_CUDA(frontier.flip());
    DD_SSSP_NO_OVERFLOW(frontier);
    result.processed += size;
    ++result.launches;
  }
  return finish_run(timer, dist, result);
}

} // namespace

Expected<Result> bf_worklist(const DeviceGraph &graph, VertexId source, LoadBalance lb) {
  if (Status s = check_not_flat_scan(lb, "bf-worklist"); !s.ok())
    return s;
  lb = resolve_load_balance(graph, lb);
  return graph.needs_wide_distances() ? run<unsigned long long>(graph, source, lb)
                                      : run<unsigned>(graph, source, lb);
}

} // namespace dd::sssp
