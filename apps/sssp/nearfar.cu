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
// c times the vertices that one relaxation round settles; on road-like
// graphs kRoadDeltaScale (4) times that, for fewer steps.
//
// Two ways to run the steps (NearFarOptions::Steps):
//   host    a launch per relaxation step and per split; the host reads each
//           pile's size between launches to size the next (a copy and a
//           synchronization per step, ~10 us more on an H100 than the step's
//           own work on road graphs, whose piles are small and many).
//   device  one cooperative launch runs every step and split, the grid
//           waiting for itself (grid.sync()) between them; the grid is what
//           the occupancy calculator says fits at once (all blocks must be
//           resident for grid.sync not to deadlock). Only on graphs without
//           hubs (max degree < kHubDegree), whose expansion is a launch of
//           its own.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include <cooperative_groups.h>

#include "dd/atomics.cuh"
#include "dd/worklist.cuh"
#include "sssp/common.cuh"
#include "sssp/relax.cuh"

namespace dd::sssp {
namespace {

/// threshold + delta, saturating at kInf, where the near pile takes every
/// distance.
template <class Dist> __host__ __device__ __forceinline__ Dist plus_delta(Dist d, Dist delta) {
  return d < kInf<Dist> - delta ? Dist(d + delta) : kInf<Dist>;
}

/// Splits far[0, size) at [low, high): distances below `low` are dropped,
/// those below `high` go to `near`, the rest to `far_out` (marked with the
/// far pile's new epoch), and far_min receives their smallest distance.
/// The far pile has no duplicates (Piles), so neither output needs marks to
/// avoid them.
template <class Dist>
__device__ __forceinline__ void
split_far_steps(Dist *dist, const VertexId *far, std::uint32_t size, Dist low, Dist high,
                const Queue<VertexId> &near, const Queue<VertexId> &far_out, unsigned *far_mark,
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

template <class Dist>
__global__ void __launch_bounds__(kBlockThreads)
    split_far(Dist *dist, const VertexId *far, std::uint32_t size, Dist low, Dist high,
              Queue<VertexId> near, Queue<VertexId> far_out, unsigned *far_mark,
              unsigned far_epoch, Dist *far_min) {
  split_far_steps(dist, far, size, low, high, near, far_out, far_mark, far_epoch, far_min);
}

/// The piles of the single-launch near-far, in device memory. The near
/// pile rotates over three buffers: the step's input, its output, and the
/// input of the step before, whose size the leader clears during the step
/// so that it is an empty output after the next grid.sync. The far pile
/// alternates between two (the split reads one and writes the other), and
/// so does far_min (the split's smallest far distance).
template <class Dist> struct DevicePiles {
  VertexId *near[3];
  std::uint32_t *near_size; // [3]
  VertexId *far[2];
  std::uint32_t *far_size; // [2]
  Dist *far_min;           // [2]
  unsigned *near_mark;
  unsigned *far_mark;
  std::uint32_t capacity; // of every buffer: |V|
  unsigned long long *counters; // [0]: processed, [1]: steps and splits
  unsigned *solo;               // [2]: block 0's near buffer and epoch after its steps alone
};

/// Near piles this small are relaxed by block 0 alone (one block's worth of
/// vertices). On an H100 that took luxembourg from 13.6 to 11.1 ms and the
/// grids 2-4% faster; 1024 made the grids 1.3-1.4x slower (one block is then
/// slower than the grid and its barrier) and 4096 up to 4x (docs/PERF.md).
constexpr std::uint32_t kSoloItems = kBlockThreads;

/// The whole near-far search in one cooperative launch (see the top of the
/// file). Every thread runs the same control flow on values it reads after
/// a grid.sync, so all of them take the same branches.
template <class Dist, class Expand>
__global__ void __launch_bounds__(kBlockThreads)
    nearfar_device(GraphView g, Dist *dist, DevicePiles<Dist> p, Dist delta) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ typename Expand::TempStorage temp;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  unsigned in = 0, far_in = 0, split = 0;
  unsigned near_epoch = 0, far_epoch = 1;
  Dist threshold = plus_delta(Dist(0), delta);
  unsigned long long processed = 0, rounds = 0;
  // One relaxation step of near[in] (`size` vertices) by `blocks` blocks
  // from `block`, into near[(in + 1) % 3] (returned) and the far pile; the
  // leader clears the third buffer's size meanwhile.
  const auto step = [&](std::uint32_t size, unsigned block, unsigned blocks) {
    const unsigned out = (in + 1) % 3, spare = (in + 2) % 3;
    if (leader)
      store_relaxed(p.near_size[spare], 0u);
    Piles<Dist> piles{Queue<VertexId>(p.near[out], &p.near_size[out], p.capacity),
                      Queue<VertexId>(p.far[far_in], &p.far_size[far_in], p.capacity),
                      threshold,
                      p.near_mark,
                      ++near_epoch,
                      p.far_mark,
                      far_epoch};
    relax_frontier_steps<Dist, Expand>(g, dist, p.near[in], size, piles, Queue<VertexId>(),
                                       ~std::uint32_t{0}, temp, block, blocks);
    processed += size;
    ++rounds;
    return out;
  };
  for (;;) {
    // Near phase. Invariant at each step: near_size[(in + 1) % 3] == 0.
    for (;;) {
      std::uint32_t size = load_relaxed(p.near_size[in]);
      if (size == 0)
        break;
      if (size <= kSoloItems) {
        // A small near pile: block 0 relaxes it, and the piles that follow
        // while they stay small, alone, with __syncthreads between steps
        // instead of grid.sync (the others wait at the one below). On a road
        // network most steps hold a few dozen vertices; alone, block 0 saves
        // the grid barrier and the other blocks' empty passes (about 1.7 of
        // 9.2 us per luxembourg step).
        // Every block must have read this pile's size first: block 0's
        // second step clears it (it is that step's spare buffer), and a
        // block that read 0 would leave for the split, out of step with the
        // barriers (a hang seen once in 176 runs without this one).
        grid.sync();
        if (blockIdx.x == 0) {
          while (size != 0 && size <= kSoloItems) {
            const unsigned out = step(size, 0, 1);
            // Orders the block's pushes (device-scope atomics) before its
            // threads read the new size.
            __syncthreads();
            in = out;
            size = load_relaxed(p.near_size[in]);
          }
          if (threadIdx.x == 0) {
            store_relaxed(p.solo[0], in);
            store_relaxed(p.solo[1], near_epoch);
          }
        }
        grid.sync();
        in = load_relaxed(p.solo[0]);
        near_epoch = load_relaxed(p.solo[1]);
        continue;
      }
      const unsigned out = step(size, blockIdx.x, gridDim.x);
      grid.sync();
      in = out;
    }
    // Split the far pile gathered since the last split into the (empty)
    // near output and the other far buffer.
    const std::uint32_t far_size = load_relaxed(p.far_size[far_in]);
    if (far_size == 0)
      break;
    const unsigned out = (in + 1) % 3, far_out = far_in ^ 1;
    if (leader)
      store_relaxed(p.near_size[(in + 2) % 3], 0u);
    const Dist low = threshold;
    threshold = plus_delta(low, delta);
    ++far_epoch;
    split_far_steps(dist, p.far[far_in], far_size, low, threshold,
                    Queue<VertexId>(p.near[out], &p.near_size[out], p.capacity),
                    Queue<VertexId>(p.far[far_out], &p.far_size[far_out], p.capacity),
                    p.far_mark, far_epoch, &p.far_min[split & 1]);
    ++rounds;
    grid.sync();
    if (leader) {
      // Read by nobody until the next split, one grid.sync or more away.
      store_relaxed(p.far_size[far_in], 0u);
      store_relaxed(p.far_min[(split + 1) & 1], kInf<Dist>);
    }
    in = out;
    far_in = far_out;
    if (load_relaxed(p.near_size[in]) == 0)
      // An empty bucket: the next split starts at the smallest far distance.
      threshold = load_relaxed(p.far_min[split & 1]);
    ++split;
  }
  if (leader) {
    p.counters[0] = processed;
    p.counters[1] = rounds;
  }
}

/// The start of both ways: the result's fields, the timer, the distances.
template <class Dist>
Status start_run(GpuTimer &timer, DeviceArray<Dist> &dist, VertexId source, unsigned init_blocks,
                 Dist delta, Result &result) {
  result.delta = delta;
  result.wide_distances = sizeof(Dist) > 4;
  const std::uint32_t n = std::uint32_t(dist.size());
  DD_SSSP_CUDA(timer.start());
  init_distances<Dist><<<blocks_for(n, init_blocks), kBlockThreads>>>(dist.data(), n, source);
  DD_SSSP_CUDA(cudaGetLastError());
  return Status();
}

/// Whether the single-launch way can run on this GPU and graph.
bool device_steps_possible(const DeviceGraph &graph) {
  int device = 0, cooperative = 0;
  return graph.max_degree() < kHubDegree && cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device) ==
             cudaSuccess &&
         cooperative != 0;
}

template <class Dist, class Expand>
Expected<Result> run_device(const DeviceGraph &graph, VertexId source, Dist delta,
                            const LoadBalance &lb) {
  const std::uint32_t n = graph.num_vertices();
  DeviceArray<Dist> dist, far_min;
  DeviceArray<VertexId> items;
  DeviceArray<std::uint32_t> sizes;
  DeviceArray<unsigned> marks;
  DeviceArray<unsigned long long> counters;
  DeviceArray<unsigned> solo;
  GpuTimer timer;
  DD_SSSP_CUDA(dist.allocate(n));
  DD_SSSP_CUDA(far_min.allocate(2));
  DD_SSSP_CUDA(items.allocate(std::uint64_t(5) * n));
  DD_SSSP_CUDA(sizes.allocate(5));
  DD_SSSP_CUDA(marks.allocate(std::uint64_t(2) * n));
  DD_SSSP_CUDA(counters.allocate(2));
  DD_SSSP_CUDA(solo.allocate(2));
  DD_SSSP_CUDA(timer.create());
  DevicePiles<Dist> piles{};
  piles.solo = solo.data();
  for (unsigned b = 0; b < 3; ++b)
    piles.near[b] = items.data() + std::uint64_t(b) * n;
  piles.far[0] = items.data() + std::uint64_t(3) * n;
  piles.far[1] = items.data() + std::uint64_t(4) * n;
  piles.near_size = sizes.data();
  piles.far_size = sizes.data() + 3;
  piles.far_min = far_min.data();
  piles.near_mark = marks.data();
  piles.far_mark = marks.data() + n;
  piles.capacity = n;
  piles.counters = counters.data();
  // Every block must be resident at once for grid.sync: the grid is the
  // occupancy calculator's blocks per SM times the SMs, never more. Fewer
  // blocks make grid.sync cheaper but the large piles slower: on an H100,
  // one block per SM took grid1024 from 44.8 to 40.3 ms and urand20 from
  // 4.5 to 7.3 ms (docs/sssp.md), so the grid stays full.
  unsigned init_blocks = 0, blocks = 0;
  DD_SSSP_CUDA(resident_blocks(init_distances<Dist>, init_blocks));
  DD_SSSP_CUDA(resident_blocks(nearfar_device<Dist, Expand>, blocks));
  const std::uint32_t start_sizes[5] = {1, 0, 0, 0, 0};
  const Dist no_far[2] = {kInf<Dist>, kInf<Dist>};
  GraphView g = view(graph);
  Dist *dist_ptr = dist.data();
  void *args[] = {&g, &dist_ptr, &piles, &delta};

  Result result;
  result.lb = load_balance_name(lb);
  if (Status s = start_run(timer, dist, source, init_blocks, delta, result); !s.ok())
    return s;
  DD_SSSP_CUDA(cudaMemsetAsync(marks.data(), 0, std::uint64_t(2) * n * sizeof(unsigned)));
  DD_SSSP_CUDA(cudaMemcpyAsync(piles.near[0], &source, sizeof(VertexId), cudaMemcpyHostToDevice));
  DD_SSSP_CUDA(cudaMemcpyAsync(sizes.data(), start_sizes, sizeof start_sizes,
                               cudaMemcpyHostToDevice));
  DD_SSSP_CUDA(cudaMemcpyAsync(far_min.data(), no_far, sizeof no_far, cudaMemcpyHostToDevice));
  DD_SSSP_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void *>(nearfar_device<Dist, Expand>),
                                           dim3(blocks), dim3(kBlockThreads), args, 0, nullptr));
  unsigned long long host_counters[2] = {0, 0};
  DD_SSSP_CUDA(cudaMemcpy(host_counters, counters.data(), sizeof host_counters,
                          cudaMemcpyDeviceToHost));
  result.processed = host_counters[0];
  result.launches = host_counters[1];
  return finish_run(timer, dist, result);
}

template <class Dist>
Expected<Result> run(const DeviceGraph &graph, VertexId source, const NearFarOptions &options) {
  const std::uint64_t chosen =
      options.delta != 0 ? options.delta
                         : nearfar_delta(graph) * (road_like(graph) ? kRoadDeltaScale : 1);
  const Dist delta = Dist(std::min<std::uint64_t>(chosen, kInf<Dist>));
  const LoadBalance &lb = options.lb; // resolved by nearfar(), and the steps
  if (options.steps == NearFarOptions::Steps::kDevice)
    return with_block_strategy<Dist>(lb, [&](auto *expand) {
      using Expand = std::remove_pointer_t<decltype(expand)>;
      return run_device<Dist, Expand>(graph, source, delta, lb);
    });

  const std::uint32_t n = graph.num_vertices();
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
  if (Status s = relaxer.init(graph, lb); !s.ok())
    return s;

  Result result;
  result.lb = load_balance_name(lb);
  if (Status s = start_run(timer, dist, source, init_blocks, delta, result); !s.ok())
    return s;
  DD_SSSP_CUDA(cudaMemsetAsync(near_mark.data(), 0, n * sizeof(unsigned)));
  DD_SSSP_CUDA(cudaMemsetAsync(far_mark.data(), 0, n * sizeof(unsigned)));
  DD_SSSP_CUDA(near.assign(&source, 1));
  DD_SSSP_CUDA(far.assign(nullptr, 0));
  Piles<Dist> piles{};
  piles.near_mark = near_mark.data();
  piles.far_mark = far_mark.data();
  piles.far_epoch = 1;
  piles.threshold = plus_delta(Dist(0), delta);
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
    piles.threshold = plus_delta(low, delta);
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

Expected<Result> nearfar(const DeviceGraph &graph, VertexId source, NearFarOptions options) {
  // Steps in one launch cannot run the search (its prefix sum is a launch
  // of its own): there `auto` takes the warp scan, the faster of the block
  // strategies off road-like graphs too (urand18: 2.0 against 3.2 ms with
  // TWC; PERF.md, "Load balancing"). And `auto` runs the steps in one
  // launch wherever they can be (no vertex of kHubDegree edges or more):
  // with the small piles spread over the warps, the warp scan in one launch
  // beat the search's host steps on wiki-Vote (0.57 against 0.69 ms) and
  // urand20 (2.9 against 3.3; PERF.md, "Near-far: one launch off road-like
  // graphs too").
  if (Status s = check_not_flat_scan(options.lb, "near-far"); !s.ok())
    return s;
  using Steps = NearFarOptions::Steps;
  if (options.steps == Steps::kDevice) {
    if (options.lb.strategy == LoadBalance::Strategy::kSearch)
      return Status::error("near-far: --nearfar-steps=device cannot run --lb=search (its "
                           "prefix sum is a launch of its own): use host steps");
    if (!device_steps_possible(graph))
      return Status::error(graph.max_degree() >= kHubDegree
                               ? "near-far: --nearfar-steps=device needs a graph without hubs "
                                 "(every out-degree below 4096)"
                               : "near-far: --nearfar-steps=device needs a GPU with cooperative "
                                 "launch");
  } else if (options.steps == Steps::kAuto) {
    options.steps = options.lb.strategy != LoadBalance::Strategy::kSearch &&
                            device_steps_possible(graph)
                        ? Steps::kDevice
                        : Steps::kHost;
  }
  if (options.steps == Steps::kDevice && options.lb.strategy == LoadBalance::Strategy::kAuto)
    options.lb.strategy = LoadBalance::Strategy::kWarpScan;
  options.lb = resolve_load_balance(graph, options.lb);
  return graph.needs_wide_distances() ? run<unsigned long long>(graph, source, options)
                                      : run<unsigned>(graph, source, options);
}

} // namespace dd::sssp
