// BFS: level-synchronous and topology-driven. Top-down steps are atomic-free
// (Nasre, Burtscher, Pingali, "Atomic-free irregular computations on GPUs":
// BFS by benign races): launch d looks at every vertex; those at level d
// write d + 1 to each neighbour still unvisited, with a plain (relaxed)
// store. Several threads may store into one neighbour, but all store the
// same value, so no atomic is needed and no update can be lost; a vertex
// written in launch d has level d + 1 and is not expanded until launch
// d + 1. The out-edges of each level's vertices go through a strategy of
// <dd/load_balance.cuh> (BfsOptions::lb; dd::lb::ThreadWarpBlock by
// default, so hubs are spread over a block or a warp).
//
// Direction-optimizing (Beamer, Asanovic, Patterson, SC'12): where the
// frontier's out-edges are many (more than the unexplored edges / 14), a
// bottom-up step has every unvisited vertex look among its in-neighbours
// for one at level d and stop at the first, which checks far fewer edges in
// the wide middle levels of a low-diameter graph; once the frontier is
// small again (fewer than |V| / 24 vertices) the steps go top-down. Only its
// own thread writes a vertex in a bottom-up step, so that step needs no
// atomic either; the top-down steps of this mode claim a vertex with a
// compare-and-swap after a plain check, to count exactly the new frontier
// and its out-edges that the switch needs (one atomic per new vertex, a
// block's counts added once).
#include <type_traits>

#include "dd/load_balance/thread_warp_block.cuh"
#include "sssp/common.cuh"
#include "sssp/relax.cuh"

namespace dd::sssp {
namespace {

constexpr unsigned kUnvisited = kInf<unsigned>;

/// The block stage that takes hubs in front of a warp strategy.
using HubExpand = DefaultExpand<unsigned>;

/// Shared memory of for_each_frontier_edge with strategy Expand.
template <class Expand> struct FrontierTemp {
  typename HubExpand::TempStorage hubs;
  typename Expand::TempStorage rest;
};

/// Runs `op(depth + 1, e)` for every out-edge e of the vertices at level
/// `depth`, spread over the block by Expand (a strategy of
/// <dd/load_balance.cuh>); with a warp strategy, hubs (a block's worth of
/// edges or more) go to the block first, as in ADDS, so that no warp walks
/// a hub alone. Every thread of the block calls it.
template <class Expand, class Op>
__device__ __forceinline__ void for_each_frontier_edge(const GraphView &g, unsigned *level,
                                                       unsigned depth, FrontierTemp<Expand> &temp,
                                                       Op &&op) {
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * kBlockThreads; base < g.num_vertices;
       base += std::uint64_t(gridDim.x) * kBlockThreads) {
    const std::uint64_t v = base + threadIdx.x;
    std::uint32_t begin = 0, end = 0;
    if (v < g.num_vertices && load_relaxed(level[v]) == depth) {
      begin = __ldg(&g.row_offsets[v]);
      end = __ldg(&g.row_offsets[v + 1]);
    }
    if constexpr (std::is_same_v<Expand, HubExpand>) {
      HubExpand(temp.hubs).run(begin, end, depth + 1, op);
    } else {
      const bool hub = end - begin >= kBlockThreads;
      HubExpand(temp.hubs).run(begin, hub ? end : begin, depth + 1, op);
      Expand(temp.rest).run(begin, hub ? begin : end, depth + 1, op);
    }
  }
}

/// Expands the vertices at level `depth`; sets `changed` to depth + 1 when
/// some vertex got that level.
template <class Expand>
__global__ void __launch_bounds__(kBlockThreads)
    expand_level(GraphView g, unsigned *level, unsigned depth, unsigned *changed) {
  __shared__ FrontierTemp<Expand> temp;
  bool visited = false;
  for_each_frontier_edge<Expand>(g, level, depth, temp, [&](unsigned next, std::uint32_t e) {
    unsigned &lw = level[__ldg(&g.col_indices[e])];
    if (load_relaxed(lw) == kUnvisited) {
      store_relaxed(lw, next);
      visited = true;
    }
  });
  if (__syncthreads_or(visited) && threadIdx.x == 0)
    store_relaxed(*changed, depth + 1);
}

/// What a counted step found: the vertices that got level depth + 1 and
/// the sum of their out-degrees (the next frontier's edges).
struct StepCounts {
  unsigned long long vertices;
  unsigned long long edges;
};

/// Adds the block's counts to `out`: a warp sum by shuffles, the warps' in
/// shared memory, one global atomic per field and block. Every thread of
/// the block calls it.
__device__ void add_block_counts(StepCounts *out, unsigned long long vertices,
                                 unsigned long long edges) {
  __shared__ unsigned long long block_vertices, block_edges;
  if (threadIdx.x == 0)
    block_vertices = block_edges = 0;
  __syncthreads();
  for (int offset = 16; offset > 0; offset >>= 1) {
    vertices += __shfl_down_sync(0xffffffffu, vertices, offset);
    edges += __shfl_down_sync(0xffffffffu, edges, offset);
  }
  if ((threadIdx.x & 31) == 0 && vertices != 0) {
    atomicAdd(&block_vertices, vertices);
    atomicAdd(&block_edges, edges);
  }
  __syncthreads();
  if (threadIdx.x == 0 && block_vertices != 0) {
    atomicAdd(&out->vertices, block_vertices);
    atomicAdd(&out->edges, block_edges);
  }
}

__device__ __forceinline__ unsigned long long out_degree(const GraphView &g, VertexId v) {
  return __ldg(&g.row_offsets[v + 1]) - __ldg(&g.row_offsets[v]);
}

/// A top-down step that counts what it found: a vertex is claimed by a
/// compare-and-swap (after a plain check, so that only candidates pay it),
/// and its claimer counts it and its out-degree.
template <class Expand>
__global__ void __launch_bounds__(kBlockThreads)
    push_level_counted(GraphView g, unsigned *level, unsigned depth, StepCounts *counts) {
  __shared__ FrontierTemp<Expand> temp;
  unsigned long long found = 0, edges = 0;
  for_each_frontier_edge<Expand>(g, level, depth, temp, [&](unsigned next, std::uint32_t e) {
    const VertexId w = __ldg(&g.col_indices[e]);
    if (load_relaxed(level[w]) == kUnvisited &&
        atomicCAS(&level[w], kUnvisited, next) == kUnvisited) {
      ++found;
      edges += out_degree(g, w);
    }
  });
  add_block_counts(counts + (depth & 1), found, edges);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    counts[(depth + 1) & 1] = StepCounts{0, 0}; // the next step's, read by no one now
}

/// A bottom-up step: each unvisited vertex takes level depth + 1 from the
/// first in-neighbour it finds at level depth. A vertex at depth + 1 is
/// never mistaken for one at depth, so the vertices set in this step are
/// not parents in it.
__global__ void __launch_bounds__(kBlockThreads)
    pull_level(GraphView g, const std::uint32_t *in_offsets, const VertexId *in_sources,
               unsigned *level, unsigned depth, StepCounts *counts) {
  unsigned long long found = 0, edges = 0;
  for (std::uint64_t v = std::uint64_t(blockIdx.x) * kBlockThreads + threadIdx.x; v < g.num_vertices;
       v += std::uint64_t(gridDim.x) * kBlockThreads) {
    if (load_relaxed(level[v]) != kUnvisited)
      continue;
    const std::uint32_t end = __ldg(&in_offsets[v + 1]);
    for (std::uint32_t i = __ldg(&in_offsets[v]); i < end; ++i)
      if (load_relaxed(level[__ldg(&in_sources[i])]) == depth) {
        store_relaxed(level[v], depth + 1);
        ++found;
        edges += out_degree(g, VertexId(v));
        break;
      }
  }
  add_block_counts(counts + (depth & 1), found, edges);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    counts[(depth + 1) & 1] = StepCounts{0, 0};
}

/// Beamer's thresholds (SC'12, tuned there on CPUs and kept): bottom-up
/// once the frontier's out-edges exceed the unexplored edges / kAlpha, top-
/// down again once the frontier has fewer than |V| / kBeta vertices.
constexpr double kAlpha = 14;
constexpr double kBeta = 24;

/// bfs with the direction-optimizing switch (the graph has in-edges).
template <class Expand> Expected<Result> bfs_switching(const DeviceGraph &graph, VertexId source) {
  const GraphView g = view(graph);
  const std::uint32_t n = g.num_vertices;
  DeviceArray<unsigned> level;
  DeviceArray<StepCounts> counts;
  GpuTimer timer;
  DD_SSSP_CUDA(level.allocate(n));
  DD_SSSP_CUDA(counts.allocate(2)); // step d adds to slot d % 2 and zeroes the other
  DD_SSSP_CUDA(timer.create());
  StepCounts *host = nullptr;
  DD_SSSP_CUDA(cudaMallocHost(&host, sizeof(StepCounts)));
  DD_SSSP_CUDA(cudaMemset(counts.data(), 0, 2 * sizeof(StepCounts)));
  struct FreeHost {
    StepCounts *p;
    ~FreeHost() { cudaFreeHost(p); }
  } free_host{host};
  std::uint32_t source_edges[2] = {0, 0};
  DD_SSSP_CUDA(cudaMemcpy(source_edges, g.row_offsets + source, sizeof(source_edges),
                          cudaMemcpyDeviceToHost));
  unsigned init_blocks = 0, push_blocks = 0, pull_blocks = 0;
  DD_SSSP_CUDA(resident_blocks(init_distances<unsigned>, init_blocks));
  DD_SSSP_CUDA(resident_blocks(push_level_counted<Expand>, push_blocks));
  DD_SSSP_CUDA(resident_blocks(pull_level, pull_blocks));

  Result result;
  // The frontier (its vertices and out-edges) and the edges not yet looked
  // at from a visited vertex.
  double frontier = 1, frontier_edges = source_edges[1] - source_edges[0];
  double unexplored = double(g.num_edges) - frontier_edges;
  bool top_down = true;
  DD_SSSP_CUDA(timer.start());
  init_distances<unsigned><<<blocks_for(n, init_blocks), kBlockThreads>>>(level.data(), n, source);
  DD_SSSP_CUDA(cudaGetLastError());
  for (unsigned depth = 0;; ++depth) {
    if (top_down && frontier_edges > unexplored / kAlpha)
      top_down = false;
    else if (!top_down && frontier < n / kBeta)
      top_down = true;
    if (top_down) {
      push_level_counted<Expand><<<blocks_for(n, push_blocks), kBlockThreads>>>(g, level.data(), depth,
                                                                                 counts.data());
    } else {
      pull_level<<<blocks_for(n, pull_blocks), kBlockThreads>>>(
          g, graph.in_offsets(), graph.in_sources(), level.data(), depth, counts.data());
      ++result.bottom_up_steps;
    }
    DD_SSSP_CUDA(cudaGetLastError());
    DD_SSSP_CUDA(cudaMemcpyAsync(host, counts.data() + (depth & 1), sizeof(StepCounts),
                                 cudaMemcpyDeviceToHost));
    DD_SSSP_CUDA(cudaStreamSynchronize(0));
    result.processed += n;
    ++result.launches;
    if (host->vertices == 0)
      break;
    frontier = double(host->vertices);
    frontier_edges = double(host->edges);
    unexplored = unexplored > frontier_edges ? unexplored - frontier_edges : 0;
  }
  return finish_run(timer, level, result);
}

/// Every level top-down.
template <class Expand> Expected<Result> bfs_top_down(const DeviceGraph &graph, VertexId source) {
  const GraphView g = view(graph);
  const std::uint32_t n = g.num_vertices;
  DeviceArray<unsigned> level;
  DeviceFlag changed; // the last level that got a vertex
  GpuTimer timer;
  DD_SSSP_CUDA(level.allocate(n));
  DD_SSSP_CUDA(changed.allocate());
  DD_SSSP_CUDA(timer.create());
  unsigned init_blocks = 0, level_blocks = 0;
  DD_SSSP_CUDA(resident_blocks(init_distances<unsigned>, init_blocks));
  DD_SSSP_CUDA(resident_blocks(expand_level<Expand>, level_blocks));

  Result result;
  DD_SSSP_CUDA(timer.start());
  init_distances<unsigned><<<blocks_for(n, init_blocks), kBlockThreads>>>(level.data(), n, source);
  DD_SSSP_CUDA(cudaGetLastError());
  for (unsigned depth = 0;; ++depth) {
    expand_level<Expand><<<blocks_for(n, level_blocks), kBlockThreads>>>(g, level.data(), depth,
                                                                         changed.device());
    DD_SSSP_CUDA(cudaGetLastError());
    unsigned last_level = 0;
    DD_SSSP_CUDA(changed.read(last_level));
    result.processed += n;
    ++result.launches;
    if (last_level != depth + 1)
      break;
  }
  return finish_run(timer, level, result);
}

} // namespace

Expected<Result> bfs(const DeviceGraph &graph, VertexId source, BfsOptions options) {
  if (options.lb.strategy == LoadBalance::Strategy::kSearch)
    return Status::error("bfs cannot spread edges by the device-wide search: its levels are "
                         "topology-driven, with no frontier list to sum (--lb: auto, twc, warp "
                         "or scan)");
  // auto: the warp scan on graphs with neither hubs nor road-like degrees
  // (the uniform ones), twc elsewhere. Measured on an H100 (docs/PERF.md,
  // "ADDS and bfs with each load-balancing strategy"): scan against twc,
  // urand18 0.178 / 0.239 ms, urand20 0.220 / 0.377; twc against scan,
  // kron18 0.360 / 2.07 (a hub's edges on one warp), kron20 0.271 / 0.320,
  // wiki-Vote 0.122 / 0.134, luxembourg 19.0 / 20.6, grid1024 35.8 / 36.0.
  if (Status s = check_not_flat_scan(options.lb, "bfs"); !s.ok())
    return s;
  LoadBalance balance = options.lb;
  if (balance.strategy == LoadBalance::Strategy::kAuto)
    balance.strategy = !road_like(graph) && !has_hubs(graph) ? LoadBalance::Strategy::kWarpScan
                                                             : LoadBalance::Strategy::kTwc;
  balance = resolve_load_balance(graph, balance);
  const bool switching = options.direction == BfsOptions::Direction::kAuto && graph.in_offsets() &&
                         !road_like(graph);
  Expected<Result> result = with_block_strategy<unsigned>(balance, [&](auto *tag) {
    using Expand = std::remove_pointer_t<decltype(tag)>;
    return switching ? bfs_switching<Expand>(graph, source) : bfs_top_down<Expand>(graph, source);
  });
  if (result.ok())
    result->lb = load_balance_name(balance);
  return result;
}

} // namespace dd::sssp
