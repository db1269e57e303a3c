// BFS: level-synchronous, topology-driven and atomic-free (Nasre, Burtscher,
// Pingali, "Atomic-free irregular computations on GPUs": BFS by benign
// races). Launch d looks at every vertex; those at level d write d + 1 to
// each neighbour still unvisited, with a plain (relaxed) store. Several
// threads may store into one neighbour, but all store the same value, so no
// atomic is needed and no update can be lost; a vertex written in launch d
// has level d + 1 and is not expanded until launch d + 1. Levels end when a
// launch writes nothing. The out-edges of each level's vertices go through
// dd::lb::ThreadWarpBlock, so hubs are spread over a block or a warp.
#include "sssp/common.cuh"
#include "dd/load_balance/thread_warp_block.cuh"

namespace dd::sssp {
namespace {

constexpr unsigned kUnvisited = kInf<unsigned>;

/// Expands the vertices at level `depth`; sets `changed` to depth + 1 when
/// some vertex got that level.
__global__ void __launch_bounds__(kBlockThreads)
    expand_level(GraphView g, unsigned *level, unsigned depth, unsigned *changed) {
  using Expand = lb::ThreadWarpBlock<kBlockThreads, unsigned>;
  __shared__ Expand::TempStorage temp;
  bool visited = false;
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * kBlockThreads; base < g.num_vertices;
       base += std::uint64_t(gridDim.x) * kBlockThreads) {
    const std::uint64_t v = base + threadIdx.x;
    std::uint32_t begin = 0, end = 0;
    if (v < g.num_vertices && load_relaxed(level[v]) == depth) {
      begin = __ldg(&g.row_offsets[v]);
      end = __ldg(&g.row_offsets[v + 1]);
    }
    Expand(temp).run(begin, end, depth + 1, [&](unsigned next, std::uint32_t e) {
      unsigned &lw = level[__ldg(&g.col_indices[e])];
      if (load_relaxed(lw) == kUnvisited) {
        store_relaxed(lw, next);
        visited = true;
      }
    });
  }
  if (__syncthreads_or(visited) && threadIdx.x == 0)
    store_relaxed(*changed, depth + 1);
}

} // namespace

Expected<Result> bfs(const DeviceGraph &graph, VertexId source) {
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
  DD_SSSP_CUDA(resident_blocks(expand_level, level_blocks));

  Result result;
  DD_SSSP_CUDA(timer.start());
  init_distances<unsigned><<<blocks_for(n, init_blocks), kBlockThreads>>>(level.data(), n, source);
  DD_SSSP_CUDA(cudaGetLastError());
  for (unsigned depth = 0;; ++depth) {
    expand_level<<<blocks_for(n, level_blocks), kBlockThreads>>>(g, level.data(), depth,
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

} // namespace dd::sssp
