// Boruvka's minimum spanning forest on the GPU with component locks: the
// dissertation's MST benchmark (ch. 4.5, after LonestarGPU 3.0's Boruvka), in
// plain CUDA with a global try-lock critical section (Listing 4.1).
//
// A component is named by its root vertex: comp[v] is the root of v's
// component. Each round:
//   (a) find_min, a thread per vertex: the vertex's lightest edge to another
//       component, in the order (weight, edge id); then, holding the lock of
//       its component, the component's best (weight, edge) becomes the
//       lighter of the two. Two words updated together: a lock, not an
//       atomicMin.
//   (b) hook, a thread per component (root): the component hooks to the one
//       across its best edge and marks the edge chosen. Two components that
//       chose each other (the same edge: the order is strict, so a cycle of
//       choices has length 2) hook once: the higher id to the lower.
//   (c) jump: pointer jumping on the hooks until every vertex has its root.
// Rounds repeat until no component has an edge to another.
//
// This file is compiled twice into one program (apps/mst/CMakeLists.txt):
// as written, with DD_MST_VARIANT=locks, and rewritten at build time by
// `decoupler --passes=delegate`, with DD_MST_VARIANT=delegate, which turns
// the annotated try-lock loop into messages to server blocks that own the
// component locks (docs/mst.md). Plain nvcc builds ignore DD_PRAGMA.
#include <chrono>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include <dd/annotate.h>

#include "common/cuda_host.cuh"
#include "mst/mst.h"

#ifndef DD_MST_VARIANT
#error "compile boruvka.cu with -DDD_MST_VARIANT=locks or -DDD_MST_VARIANT=delegate"
#endif

namespace dd::mst::DD_MST_VARIANT {

constexpr unsigned kBlock = 256;
constexpr std::uint32_t kNone = 0xffffffffu; // no edge; also above every weight

__global__ void init_components(std::uint32_t n, VertexId *comp) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n)
    comp[v] = v;
}

__global__ void reset(std::uint32_t n, const VertexId *comp, VertexId *parent,
                      std::uint32_t *best_weight, std::uint32_t *best_edge) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  parent[v] = comp[v];
  best_weight[v] = kNone;
  best_edge[v] = kNone;
}

// (a) A thread per vertex: its lightest edge leaving its component, then the
// component's best under the component's lock.
__global__ void find_min(std::uint32_t n, const std::uint32_t *row_offsets,
                         const VertexId *adj_vertex, const std::uint32_t *adj_edge,
                         const std::uint32_t *edge_weight, const VertexId *comp,
                         std::uint32_t *best_weight, std::uint32_t *best_edge, int *locks) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  const VertexId c = comp[v];
  std::uint32_t w = kNone, e = kNone;
  for (std::uint32_t i = row_offsets[v]; i < row_offsets[v + 1]; ++i) {
    if (comp[adj_vertex[i]] == c)
      continue;
    const std::uint32_t ei = adj_edge[i];
    const std::uint32_t wi = edge_weight[ei];
    if (wi < w || (wi == w && ei < e)) {
      w = wi;
      e = ei;
    }
  }
  if (e == kNone)
    return;
  bool done = false;
  DD_PRAGMA(delegate)
  do {
    if (atomicCAS(&locks[c], 0, 1) == 0) {
      __threadfence(); // acquire: the previous holder's best is visible
      if (w < best_weight[c] || (w == best_weight[c] && e < best_edge[c])) {
        best_weight[c] = w;
        best_edge[c] = e;
      }
      __threadfence();
      atomicExch(&locks[c], 0);
      done = true;
    }
  } while (!done);
}

// (b) A thread per component: hook its root to the component across its
// best edge and choose that edge. parent[] is written, comp[] only read.
__global__ void hook(std::uint32_t n, const VertexId *comp, const VertexId *edge_lo,
                     const VertexId *edge_hi, const std::uint32_t *best_edge, VertexId *parent,
                     unsigned char *chosen, std::uint32_t *hooked) {
  const std::uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c)
    return;
  const std::uint32_t e = best_edge[c];
  if (e == kNone)
    return;
  const VertexId a = comp[edge_lo[e]];
  const VertexId other = a == c ? comp[edge_hi[e]] : a;
  // The pair that chose each other: the lower id stays a root.
  if (best_edge[other] == e && c < other)
    return;
  parent[c] = other;
  chosen[e] = 1;
  atomicAdd(hooked, 1u);
}

// (c) One step of pointer jumping: parent[v] moves to its grandparent. The
// roots' parents never change during a jump, so every value read is an
// ancestor of v and the steps may interleave.
__global__ void jump(std::uint32_t n, VertexId *parent, std::uint32_t *changed) {
  const std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n)
    return;
  const VertexId p = parent[v];
  const VertexId gp = parent[p];
  if (p != gp) {
    parent[v] = gp;
    *changed = 1;
  }
}

namespace {

Status cuda_status(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return Status();
  return Status::error(graph::str_cat("Boruvka: ", what, ": ", cudaGetErrorString(err)));
}

template <class T> using Buffer = apps::DeviceArray<T>;

/// What --time-limit watches a round with: an event after the round's
/// kernels, and a stream that does not wait for them, whose events read the
/// GPU's clock now.
struct Limit {
  cudaEvent_t round_done = nullptr, now = nullptr;
  cudaStream_t side = nullptr;
  float so_far = 0; ///< ms from the run's start event, when the limit was met
  Limit() = default;
  Limit(const Limit &) = delete;
  Limit &operator=(const Limit &) = delete;
  ~Limit() {
    if (round_done)
      cudaEventDestroy(round_done);
    if (now)
      cudaEventDestroy(now);
    if (side)
      cudaStreamDestroy(side);
  }
  cudaError_t create() {
    for (cudaEvent_t *e : {&round_done, &now})
      if (cudaError_t err = cudaEventCreate(e); err != cudaSuccess)
        return err;
    return cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  }
};

/// Waits for the round launched last, or until the run has taken
/// `limit_ms` of GPU time since `start`: true when the limit came first.
/// Then `limit.so_far` is a lower bound of the run's time: read before the
/// round was seen unfinished.
Expected<bool> reached(double limit_ms, cudaEvent_t start, Limit &limit) {
  if (Status s = cuda_status(cudaEventRecord(limit.round_done), "round"); !s.ok())
    return s;
  for (;;) {
    if (Status s = cuda_status(cudaEventRecord(limit.now, limit.side), "round"); !s.ok())
      return s;
    if (Status s = cuda_status(cudaEventSynchronize(limit.now), "round"); !s.ok())
      return s;
    const cudaError_t done = cudaEventQuery(limit.round_done);
    if (done == cudaSuccess)
      return false;
    if (done != cudaErrorNotReady)
      return cuda_status(done, "round");
    if (Status s = cuda_status(cudaEventElapsedTime(&limit.so_far, start, limit.now), "round");
        !s.ok())
      return s;
    if (limit.so_far >= limit_ms)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

} // namespace

Expected<Result> boruvka(const DeviceGraph &graph, double time_limit_ms) {
  Result result;
  const std::uint32_t n = graph.num_vertices();
  const std::uint32_t m = graph.num_edges();
  if (n == 0)
    return result;
  const unsigned blocks = (n - 1) / kBlock + 1; // n > 0; n + kBlock - 1 may wrap

  Buffer<VertexId> comp, parent;
  Buffer<std::uint32_t> best_weight, best_edge, counters;
  Buffer<int> locks;
  Buffer<unsigned char> chosen;
  for (cudaError_t err : {comp.allocate(n), parent.allocate(n), best_weight.allocate(n),
                         best_edge.allocate(n), locks.allocate(n), chosen.allocate(m),
                         counters.allocate(2)})
    if (Status s = cuda_status(err, "cudaMalloc"); !s.ok())
      return s;
  std::uint32_t *hooked = counters.ptr, *changed = counters.ptr + 1;
  if (Status s = cuda_status(cudaMemset(locks.ptr, 0, n * sizeof(int)), "cudaMemset");
      !s.ok())
    return s;
  if (Status s = cuda_status(cudaMemset(chosen.ptr, 0, m > 0 ? m : 1), "cudaMemset"); !s.ok())
    return s;

  apps::EventPair events;
  if (Status s = cuda_status(events.create(), "cudaEventCreate"); !s.ok())
    return s;
  Limit limit;
  if (time_limit_ms > 0)
    if (Status s = cuda_status(limit.create(), "the time limit's stream"); !s.ok())
      return s;
  if (Status s = cuda_status(cudaDeviceSynchronize(), "before the first launch"); !s.ok())
    return s;

  cudaEventRecord(events.start);
  init_components<<<blocks, kBlock>>>(n, comp.ptr);
  ++result.launches;
  for (;;) {
    reset<<<blocks, kBlock>>>(n, comp.ptr, parent.ptr, best_weight.ptr, best_edge.ptr);
    find_min<<<blocks, kBlock>>>(n, graph.row_offsets(), graph.adj_vertex(), graph.adj_edge(),
                                 graph.edge_weight(), comp.ptr, best_weight.ptr, best_edge.ptr,
                                 locks.ptr);
    cudaMemsetAsync(hooked, 0, sizeof(std::uint32_t));
    hook<<<blocks, kBlock>>>(n, comp.ptr, graph.edge_lo(), graph.edge_hi(), best_edge.ptr,
                             parent.ptr, chosen.ptr, hooked);
    result.launches += 3;
    if (time_limit_ms > 0) {
      Expected<bool> stop = reached(time_limit_ms, events.start, limit);
      if (!stop.ok())
        return stop.status();
      if (*stop) {
        // The round's kernel may still run: its memory stays allocated
        // (freeing would wait for it).
        for (auto *p : {&comp.ptr, &parent.ptr, &best_weight.ptr, &best_edge.ptr, &counters.ptr})
          *p = nullptr;
        locks.ptr = nullptr;
        chosen.ptr = nullptr;
        result.ms = limit.so_far;
        result.unfinished = true;
        return result;
      }
    }
    std::uint32_t hooks = 0;
    if (Status s = cuda_status(cudaMemcpy(&hooks, hooked, sizeof hooks, cudaMemcpyDeviceToHost),
                               "round");
        !s.ok())
      return s;
    if (hooks == 0)
      break;
    ++result.rounds;
    for (std::uint32_t again = 1; again != 0;) {
      cudaMemsetAsync(changed, 0, sizeof(std::uint32_t));
      jump<<<blocks, kBlock>>>(n, parent.ptr, changed);
      ++result.launches;
      if (Status s = cuda_status(
              cudaMemcpy(&again, changed, sizeof again, cudaMemcpyDeviceToHost), "jump");
          !s.ok())
        return s;
    }
    // Every vertex's parent is now its root: the next round's components.
    std::swap(comp.ptr, parent.ptr);
  }
  cudaEventRecord(events.stop);
  if (Status s = cuda_status(cudaEventSynchronize(events.stop), "Boruvka's kernels"); !s.ok())
    return s;
  if (Status s = cuda_status(cudaGetLastError(), "Boruvka's kernels"); !s.ok())
    return s;
  float ms = 0;
  cudaEventElapsedTime(&ms, events.start, events.stop);
  result.ms = ms;

  std::vector<unsigned char> picked(m);
  if (m > 0)
    if (Status s = cuda_status(
            cudaMemcpy(picked.data(), chosen.ptr, m, cudaMemcpyDeviceToHost), "copying back");
        !s.ok())
      return s;
  const UndirectedGraph &host = graph.host();
  for (std::uint32_t e = 0; e < m; ++e)
    if (picked[e]) {
      const auto w = static_cast<std::int32_t>(host.edge_weight[e]);
      result.edges.push_back({host.edge_lo[e], host.edge_hi[e], w});
      result.weight += host.edge_weight[e];
    }
  result.num_trees = n - result.edges.size();
  return result;
}

} // namespace dd::mst::DD_MST_VARIANT
