// The data-driven relaxation step shared by bf-worklist and near-far: every
// vertex of the input frontier relaxes its out-edges with atomicMin, and each
// vertex whose distance it lowers goes to the near pile (new distance below
// the threshold) or to the far pile. bf-worklist is the case of one pile
// (threshold kInf). Edges are spread over threads by degree: a thread, a
// warp or the block for most vertices (CooperativeExpand), the whole grid
// for hubs (expand_hubs).
#ifndef DD_SSSP_RELAX_CUH
#define DD_SSSP_RELAX_CUH

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "dd/load_balance.cuh"
#include "dd/worklist.cuh"
#include "sssp/common.cuh"

namespace dd::sssp {

/// Where relax_frontier puts the vertices it improves, without duplicates:
/// a vertex enters a pile at most once per epoch, which bounds each pile by
/// |V| (their capacity). mark[v] == epoch says v is already in the pile;
/// epochs only grow, so marks never need clearing. The near pile's epoch is
/// new for every relaxation step (its output queue is new), the far pile's
/// for every split (the far pile accumulates over the steps in between).
template <class Dist> struct Piles {
  Queue<VertexId> near;
  Queue<VertexId> far;
  Dist threshold; // improved to a distance below it: near, else far
  unsigned *near_mark;
  unsigned near_epoch;
  unsigned *far_mark;
  unsigned far_epoch;

  __device__ __forceinline__ void push(VertexId v, Dist distance) const {
    // One call site for both piles keeps the lanes together, so that
    // Queue::push aggregates each pile's lanes with one atomic.
    const bool to_near = distance < threshold;
    unsigned &mark = to_near ? near_mark[v] : far_mark[v];
    const unsigned epoch = to_near ? near_epoch : far_epoch;
    // The plain check first: most duplicates are seen without an atomic.
    if (load_relaxed(mark) == epoch)
      return;
    if (cuda::atomic_ref<unsigned, cuda::thread_scope_device>(mark).exchange(
            epoch, cuda::memory_order_relaxed) == epoch)
      return;
    // Built from scalars rather than by picking one of the two Queue
    // members, which would take the kernel parameter's address and move it
    // to local memory.
    const Queue<VertexId> pile(to_near ? near.items() : far.items(),
                               to_near ? near.tail() : far.tail(),
                               to_near ? near.capacity() : far.capacity());
    pile.push(v);
  }
};

/// Offers dist[u] + w(e) to the head v of edge e = (u, v), given du =
/// dist[u]; a vertex it improves goes to `piles`.
template <class Dist>
__device__ __forceinline__ void relax_edge(const GraphView &g, Dist *dist, Dist du,
                                           std::uint32_t e, const Piles<Dist> &piles) {
  Dist candidate;
  if (!add_distance(du, __ldg(&g.weights[e]), candidate))
    return;
  const VertexId v = __ldg(&g.col_indices[e]);
  cuda::atomic_ref<Dist, cuda::thread_scope_device> dv(dist[v]);
  // Most edges cannot improve their head: a load filters them before the
  // read-modify-write.
  if (candidate >= dv.load(cuda::memory_order_relaxed))
    return;
  if (candidate < dv.fetch_min(candidate, cuda::memory_order_relaxed))
    piles.push(v, candidate);
}

/// Vertices of at least this out-degree ("hubs") are not expanded by the
/// block that takes them from the frontier but by the whole grid, in a
/// second launch (expand_hubs). A block needs degree / 256 rounds for a
/// vertex; a Kronecker hub of 10^5 edges would keep one block busy for
/// hundreds of rounds after the rest of the GPU has finished the launch.
inline constexpr std::uint32_t kHubDegree = 4096;

/// The default strategy: block, warp and thread stages.
template <class Dist> using DefaultExpand = lb::ThreadWarpBlock<kBlockThreads, Dist>;

/// Relaxes the out-edges of frontier[0, size), except those of vertices
/// with hub_degree or more edges, which go to `hubs` instead. Distances are
/// read when a vertex is taken from the frontier, so a vertex improved after
/// it was pushed is expanded with its newest distance. Every thread of the
/// block calls it (from relax_frontier, or as a step of a persistent
/// kernel), `temp` being the block's Expand storage; Expand is one of the
/// strategies of <dd/load_balance.cuh> with run(begin, end, item, op).
template <class Dist, class Expand = DefaultExpand<Dist>>
__device__ __forceinline__ void
relax_frontier_steps(const GraphView &g, Dist *dist, const VertexId *frontier,
                     std::uint32_t size, const Piles<Dist> &piles, const Queue<VertexId> &hubs,
                     std::uint32_t hub_degree, typename Expand::TempStorage &temp,
                     unsigned block = blockIdx.x, unsigned blocks = gridDim.x) {
  // Whole blocks iterate together: ThreadWarpBlock synchronizes the block,
  // the warp strategies the warp. `block` of `blocks` share the frontier
  // (one block alone: 0 of 1).
  // Spread over the warps: a chunk of fewer vertices than threads (a small
  // pile, the last chunk) keeps every warp of the block busy.
  const unsigned k = spread_item_index<kBlockThreads>();
  for (std::uint64_t base = std::uint64_t(block) * kBlockThreads; base < size;
       base += std::uint64_t(blocks) * kBlockThreads) {
    const std::uint64_t i = base + k;
    std::uint32_t begin = 0, end = 0;
    Dist du = 0;
    if (i < size) {
      const VertexId u = frontier[i];
      du = load_relaxed(dist[u]);
      begin = __ldg(&g.row_offsets[u]);
      end = __ldg(&g.row_offsets[u + 1]);
      if (end - begin >= hub_degree) {
        hubs.push(u);
        end = begin;
      }
    }
    Expand(temp).run(begin, end, du, [&](Dist from, std::uint32_t e) {
      relax_edge(g, dist, from, e, piles);
    });
  }
}

/// relax_frontier_steps as a kernel of its own.
template <class Dist, class Expand = DefaultExpand<Dist>>
__global__ void __launch_bounds__(kBlockThreads)
    relax_frontier(GraphView g, Dist *dist, const VertexId *frontier, std::uint32_t size,
                   Piles<Dist> piles, Queue<VertexId> hubs, std::uint32_t hub_degree) {
  __shared__ typename Expand::TempStorage temp;
  relax_frontier_steps<Dist, Expand>(g, dist, frontier, size, piles, hubs, hub_degree, temp);
}

/// The out-degree of frontier[i], for dd::lb::SearchOffsets.
struct FrontierDegree {
  const std::uint32_t *row_offsets;
  const VertexId *frontier;
  __device__ std::uint32_t operator()(std::uint32_t i) const {
    const VertexId u = frontier[i];
    return __ldg(&row_offsets[u + 1]) - __ldg(&row_offsets[u]);
  }
};

/// Relaxes every out-edge of frontier[0, size) with the whole grid in equal
/// shares (dd::lb::DeviceSearch), `offsets` the exclusive sums of the
/// frontier's degrees. A vertex's distance is read for each of its edges,
/// when the edge is taken.
template <class Dist>
__global__ void __launch_bounds__(kBlockThreads)
    relax_frontier_search(GraphView g, Dist *dist, const VertexId *frontier, std::uint32_t size,
                          const std::uint32_t *offsets, Piles<Dist> piles) {
  __shared__ typename lb::DeviceSearch<kBlockThreads>::TempStorage temp;
  lb::DeviceSearch<kBlockThreads>(temp).run(
      offsets, size,
      [&](std::uint32_t i) {
        const VertexId u = frontier[i];
        return lb::Range<VertexId>{__ldg(&g.row_offsets[u]), u};
      },
      [&](VertexId u, std::uint32_t e) { relax_edge(g, dist, load_relaxed(dist[u]), e, piles); });
}

/// Calls `f(static_cast<Expand *>(nullptr))` (a null pointer that only
/// carries the type) with the block strategy Expand that `lb` names (not
/// kSearch), and returns what f returns.
template <class Dist, class F> decltype(auto) with_block_strategy(const LoadBalance &lb, F &&f) {
  using S = LoadBalance::Strategy;
  switch (lb.strategy) {
  case S::kWarpShuffle:
    switch (lb.group) {
    case 4:
      return f(static_cast<lb::WarpShuffle<4, Dist> *>(nullptr));
    case 8:
      return f(static_cast<lb::WarpShuffle<8, Dist> *>(nullptr));
    case 16:
      return f(static_cast<lb::WarpShuffle<16, Dist> *>(nullptr));
    default:
      return f(static_cast<lb::WarpShuffle<32, Dist> *>(nullptr));
    }
  case S::kWarpScan:
    return f(static_cast<lb::WarpScan<Dist> *>(nullptr));
  default:
    return f(static_cast<DefaultExpand<Dist> *>(nullptr));
  }
}

/// Relaxes the out-edges of the hubs that relax_frontier set aside, each
/// spread over every thread of the grid (edge t of a hub goes to thread t,
/// coalesced). The frontier has no duplicates, so neither has `hubs`.
template <class Dist>
__global__ void __launch_bounds__(kBlockThreads)
    expand_hubs(GraphView g, Dist *dist, Queue<VertexId> hubs, Piles<Dist> piles) {
  // Pushed by the previous launch: the kernel boundary orders those stores.
  const std::uint32_t count = min(*hubs.tail(), hubs.capacity());
  const std::uint64_t thread = std::uint64_t(blockIdx.x) * kBlockThreads + threadIdx.x;
  const std::uint64_t threads = std::uint64_t(gridDim.x) * kBlockThreads;
  for (std::uint32_t i = 0; i < count; ++i) {
    const VertexId u = hubs.items()[i];
    const Dist du = load_relaxed(dist[u]);
    const std::uint32_t end = __ldg(&g.row_offsets[u + 1]);
    for (std::uint64_t e = __ldg(&g.row_offsets[u]) + thread; e < end; e += threads)
      relax_edge(g, dist, du, std::uint32_t(e), piles);
  }
}

/// Host side of one relaxation step: relax_frontier with the block
/// strategy of `lb`, and expand_hubs on graphs that have hubs (max degree >=
/// kHubDegree; on the others the hub launch, a few microseconds each step,
/// is never made); or, with kSearch, the frontier's degrees, their prefix
/// sum and relax_frontier_search.
template <class Dist> class FrontierRelaxer {
public:
  /// `lb` resolved (resolve_load_balance).
  Status init(const DeviceGraph &graph, const LoadBalance &lb) {
    view_ = view(graph);
    lb_ = lb;
    if (lb_.strategy == LoadBalance::Strategy::kSearch) {
      DD_SSSP_CUDA(resident_blocks(relax_frontier_search<Dist>, relax_blocks_));
      DD_SSSP_CUDA(offsets_.reserve(graph.num_vertices()));
      return Status();
    }
    DD_SSSP_CUDA(with_block_strategy<Dist>(lb_, [&](auto *expand) {
      using Expand = std::remove_pointer_t<decltype(expand)>;
      return resident_blocks(relax_frontier<Dist, Expand>, relax_blocks_);
    }));
    if (graph.max_degree() < kHubDegree)
      return Status();
    DD_SSSP_CUDA(resident_blocks(expand_hubs<Dist>, hub_blocks_));
    // At most one entry per hub: |E| / kHubDegree of them, and at most |V|.
    const std::uint32_t capacity =
        std::min(graph.num_vertices(), graph.num_edges() / kHubDegree + 1);
    DD_SSSP_CUDA(hub_items_.allocate(capacity));
    DD_SSSP_CUDA(hub_tail_.allocate(1));
    hubs_ = Queue<VertexId>(hub_items_.data(), hub_tail_.data(), capacity);
    return Status();
  }

  /// Enqueues the relaxation of frontier[0, size) into `dist` and `piles`.
  Status launch(Dist *dist, const VertexId *frontier, std::uint32_t size,
                const Piles<Dist> &piles) {
    if (lb_.strategy == LoadBalance::Strategy::kSearch) {
      DD_SSSP_CUDA(offsets_.compute(size, FrontierDegree{view_.row_offsets, frontier},
                                    blocks_for(std::uint64_t(size) + 1, relax_blocks_),
                                    kBlockThreads));
      relax_frontier_search<Dist><<<relax_blocks_, kBlockThreads>>>(view_, dist, frontier, size,
                                                                    offsets_.data(), piles);
      DD_SSSP_CUDA(cudaGetLastError());
      return Status();
    }
    const bool with_hubs = hubs_.items() != nullptr;
    if (with_hubs)
      DD_SSSP_CUDA(cudaMemsetAsync(hubs_.tail(), 0, sizeof(std::uint32_t)));
    const unsigned blocks = blocks_for(size, relax_blocks_);
    with_block_strategy<Dist>(lb_, [&](auto *expand) {
      using Expand = std::remove_pointer_t<decltype(expand)>;
      relax_frontier<Dist, Expand><<<blocks, kBlockThreads>>>(
          view_, dist, frontier, size, piles, hubs_,
          with_hubs ? kHubDegree : ~std::uint32_t{0});
      return 0;
    });
    DD_SSSP_CUDA(cudaGetLastError());
    if (with_hubs) {
      expand_hubs<Dist><<<hub_blocks_, kBlockThreads>>>(view_, dist, hubs_, piles);
      DD_SSSP_CUDA(cudaGetLastError());
    }
    return Status();
  }

private:
  GraphView view_{};
  LoadBalance lb_;
  unsigned relax_blocks_ = 0;
  unsigned hub_blocks_ = 0;
  DeviceArray<VertexId> hub_items_;
  DeviceArray<std::uint32_t> hub_tail_;
  Queue<VertexId> hubs_;
  lb::SearchOffsets offsets_;
};

} // namespace dd::sssp

#endif // DD_SSSP_RELAX_CUH
