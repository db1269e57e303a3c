// Near-far (Davidson, Baxter, Garland, Owens, IPDPS'14), the GPU SSSP of
// LonestarGPU that ADDS is measured against (dissertation chapter 5).
//
// Two piles instead of delta-stepping's many buckets. The near pile holds
// vertices whose distance is below the threshold; it is processed like
// bf-worklist's frontier, launch after launch (double-buffered), until it is
// empty; vertices improved to a distance at or above the threshold go to the
// far pile instead. Then the threshold moves up by delta and the far pile is
// split: vertices now below the threshold become the near pile, the others
// stay far, and those below the old threshold are dropped (they were
// improved into the near pile and expanded with that distance since).
// A split that leaves the near pile empty moves the threshold to delta past
// the smallest far distance rather than stepping through empty buckets.
//
// delta = c * mean weight / mean degree with c = kNearFarDeltaFactor (32):
// about c/mean-degree edges' worth of distance, so a near pile holds roughly
// c times the vertices that one relaxation round settles.
#include <algorithm>
#include <cmath>

#include "dd/atomics.cuh"
#include "dd/worklist.cuh"
#include "sssp/common.cuh"
#include "sssp/relax.cuh"

namespace dd::sssp {
namespace {

/// Splits far[0, size) at [low, high): distances below `low` are dropped,
/// those below `high` go to `near`, the rest to `far_out` (marked with the
/// far pile's new epoch), and far_min receives their smallest distance.
/// The far pile has no duplicates (Piles), so neither output needs marks to
/// avoid them.
template <class Dist>
__global__ void __launch_bounds__(kBlockThreads)
    split_far(Dist *dist, const VertexId *far, std::uint32_t size, Dist low, Dist high,
              Queue<VertexId> near, Queue<VertexId> far_out, unsigned *far_mark,
              unsigned far_epoch, Dist *far_min) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(kBlockThreads) + threadIdx.x; i < size;
       i += std::uint64_t(gridDim.x) * kBlockThreads) {
    const VertexId v = far[i];
    const Dist d = load_relaxed(dist[v]);
    if (d < low)
      continue;
    if (d < high) {
      near.push(v);
    } else {
      store_relaxed(far_mark[v], far_epoch);
      far_out.push(v);
      atomic_min_uniform(far_min, d);
    }
  }
}

template <class Dist> Expected<Result> run(const DeviceGraph &graph, VertexId source) {
  const std::uint32_t n = graph.num_vertices();
  const Dist delta = Dist(std::min<std::uint64_t>(nearfar_delta(graph), kInf<Dist>));
  DeviceArray<Dist> dist, far_min;
  DeviceArray<unsigned> near_mark, far_mark;
  DoubleBuffer<VertexId> near, far; // each at most one entry per vertex (Piles)
  GpuTimer timer;
  DD_SSSP_CUDA(dist.allocate(n));
  DD_SSSP_CUDA(far_min.allocate(1));
  DD_SSSP_CUDA(near_mark.allocate(n));
  DD_SSSP_CUDA(far_mark.allocate(n));
  DD_SSSP_CUDA(near.allocate(n));
  DD_SSSP_CUDA(far.allocate(n));
  DD_SSSP_CUDA(timer.create());
  unsigned init_blocks = 0, split_blocks = 0;
  DD_SSSP_CUDA(resident_blocks(init_distances<Dist>, init_blocks));
  DD_SSSP_CUDA(resident_blocks(split_far<Dist>, split_blocks));
  FrontierRelaxer<Dist> relaxer;
  if (Status s = relaxer.init(graph); !s.ok())
    return s;
  // Thresholds saturate at kInf, where the near pile takes every distance.
  const auto plus_delta = [delta](Dist d) {
    return d < kInf<Dist> - delta ? Dist(d + delta) : kInf<Dist>;
  };

  Result result;
  result.delta = delta;
  result.wide_distances = sizeof(Dist) > 4;
  DD_SSSP_CUDA(timer.start());
  init_distances<Dist><<<blocks_for(n, init_blocks), kBlockThreads>>>(dist.data(), n, source);
  DD_SSSP_CUDA(cudaGetLastError());
  DD_SSSP_CUDA(cudaMemsetAsync(near_mark.data(), 0, n * sizeof(unsigned)));
  DD_SSSP_CUDA(cudaMemsetAsync(far_mark.data(), 0, n * sizeof(unsigned)));
  DD_SSSP_CUDA(near.assign(&source, 1));
  DD_SSSP_CUDA(far.assign(nullptr, 0));
  Piles<Dist> piles{};
  piles.near_mark = near_mark.data();
  piles.far_mark = far_mark.data();
  piles.far_epoch = 1;
  piles.threshold = plus_delta(0);
  for (;;) {
    // Near phase: expand the near pile until no launch refills it.
    while (near.in_size() > 0) {
      const std::uint32_t size = near.in_size();
      piles.near = near.out();
      piles.far = far.out();
      ++piles.near_epoch;
      if (Status s = relaxer.launch(dist.data(), near.in(), size, piles); !s.ok())
        return s;
      DD_SSSP_CUDA(near.flip());
      DD_SSSP_NO_OVERFLOW(near);
      result.processed += size;
      ++result.launches;
    }
    // Split the far pile accumulated since the last split.
    DD_SSSP_CUDA(far.flip());
    DD_SSSP_NO_OVERFLOW(far);
    if (far.in_size() == 0)
      break;
    const Dist low = piles.threshold;
    piles.threshold = plus_delta(low);
    ++piles.far_epoch;
    DD_SSSP_CUDA(cudaMemsetAsync(far_min.data(), 0xff, sizeof(Dist))); // kInf
    split_far<Dist><<<blocks_for(far.in_size(), split_blocks), kBlockThreads>>>(
        dist.data(), far.in(), far.in_size(), low, piles.threshold, near.out(), far.out(),
        far_mark.data(), piles.far_epoch, far_min.data());
    DD_SSSP_CUDA(cudaGetLastError());
    DD_SSSP_CUDA(near.flip());
    DD_SSSP_NO_OVERFLOW(near);
    ++result.launches;
    if (near.in_size() == 0) {
      // An empty bucket: the next split starts at the smallest far distance.
      Dist smallest = 0;
      DD_SSSP_CUDA(cudaMemcpy(&smallest, far_min.data(), sizeof(Dist), cudaMemcpyDeviceToHost));
      piles.threshold = smallest;
    }
  }
  return finish_run(timer, dist, result);
}

} // namespace

std::uint64_t nearfar_delta(const DeviceGraph &graph) {
  if (graph.num_edges() == 0)
    return 1;
  const double mean_degree = double(graph.num_edges()) / graph.num_vertices();
  const double delta = std::round(kNearFarDeltaFactor * graph.mean_weight() / mean_degree);
  return delta < 1 ? 1 : delta > 0x1p63 ? std::uint64_t(1) << 63 : std::uint64_t(delta);
}

Expected<Result> nearfar(const DeviceGraph &graph, VertexId source) {
  return graph.needs_wide_distances() ? run<unsigned long long>(graph, source)
                                      : run<unsigned>(graph, source);
}

} // namespace dd::sssp
