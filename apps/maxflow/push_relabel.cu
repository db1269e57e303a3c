// Push-relabel maximum flow on the GPU with node locks: the dissertation's
// MaxFlow benchmark (ch. 4.5: "Nodes are parallelized to threads, and
// fine-grained locks are used to prevent the same node being worked by two
// or more threads"), in plain CUDA with the two nested try-locks of
// Listing 4.3.
//
// The residual network: per residual arc its head, its twin (the reverse
// arc) and its residual capacity; per vertex its excess and height. The
// host saturates the source's arcs, then runs rounds, each two launches:
//   (a) relabel, a thread per vertex: an active vertex (excess > 0, not the
//       source or the sink, height below the phase's cap) without an
//       admissible arc (residual > 0 to a vertex one lower) is lifted to
//       1 + the lowest height across its residual arcs. Heights only grow
//       and a relabel reads neighbours' heights that may be rising, which
//       keeps the labelling valid (h[u] <= h[v] + 1 on residual arcs); the
//       residual capacities do not change during this launch. It counts
//       the vertices still active and the relabels.
//   (b) push, a thread per active vertex: along each admissible arc u -> v,
//       holding the locks of u and v (lower id first), re-check the arc's
//       residual capacity and push min(excess[u], residual). Both ends'
//       excesses and both arcs of the pair change together: a push into v
//       from another thread, or from v back to u, holds v's lock. Heights
//       do not change during this launch.
// Rounds repeat until no vertex is active. After every num_vertices
// relabels the host recomputes exact heights by a breadth-first search
// backwards from the sink (global relabel). Two phases: with the cap n the
// rounds end with a maximum preflow (the sink's excess is the flow value);
// with the cap 2n, after a global relabel that also searches from the
// source, the remaining excess returns to the source, which leaves a flow.
//
// This file is compiled twice into one program (apps/maxflow/CMakeLists.txt):
// as written, with DD_MAXFLOW_VARIANT=locks, and rewritten at build time by
// `decoupler --passes=delegate`, with DD_MAXFLOW_VARIANT=delegate, which
// turns the annotated try-lock loop into messages to server blocks that own
// the node locks (docs/maxflow.md). Plain nvcc builds ignore DD_PRAGMA.
#include <chrono>
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include <dd/annotate.h>

#include "common/cuda_host.cuh"
#include "maxflow/global_relabel.h"
#include "maxflow/maxflow.h"

#ifndef DD_MAXFLOW_VARIANT
#error "compile push_relabel.cu with -DDD_MAXFLOW_VARIANT=locks or -DDD_MAXFLOW_VARIANT=delegate"
#endif

namespace dd::maxflow::DD_MAXFLOW_VARIANT {

constexpr unsigned kBlock = 256;

// (a) A thread per vertex: relabel an active vertex that has no admissible
// arc; count the active vertices (counters[0]) and the relabels
// (counters[1]).
__global__ void relabel(std::uint32_t n, VertexId source, VertexId sink, std::uint32_t cap,
                        const std::uint32_t *row_offsets, const VertexId *heads,
                        const std::int32_t *residual, const long long *excess,
                        std::uint32_t *height, std::uint32_t *counters) {
  const std::uint32_t u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || u == source || u == sink || excess[u] <= 0)
    return;
  const std::uint32_t h = height[u];
  if (h >= cap)
    return;
  std::uint32_t lowest = 0xffffffffu;
  for (std::uint32_t a = row_offsets[u]; a < row_offsets[u + 1]; ++a) {
    if (residual[a] <= 0)
      continue;
    const std::uint32_t hv = height[heads[a]];
    if (hv + 1 == h) { // admissible: no relabel
      atomicAdd(&counters[0], 1u);
      return;
    }
    if (hv < lowest)
      lowest = hv;
  }
  // A vertex with excess has a residual arc (the one its excess came by);
  // the cap covers the impossible case.
  const std::uint32_t lifted = lowest < cap ? lowest + 1 : cap;
  height[u] = lifted;
  atomicAdd(&counters[1], 1u);
  if (lifted < cap)
    atomicAdd(&counters[0], 1u);
}

// (b) A thread per vertex: push the excess of an active vertex along its
// admissible arcs, each push under the locks of both ends.
__global__ void push(std::uint32_t n, VertexId source, VertexId sink, std::uint32_t cap,
                     const std::uint32_t *row_offsets, const VertexId *heads,
                     const std::uint32_t *twins, const std::uint32_t *height,
                     std::int32_t *residual, long long *excess, int *locks) {
  const std::uint32_t u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || u == source || u == sink || height[u] >= cap)
    return;
  for (std::uint32_t a = row_offsets[u]; a < row_offsets[u + 1]; ++a) {
    if (excess[u] <= 0)
      break;
    const VertexId v = heads[a];
    if (residual[a] <= 0 || height[u] != height[v] + 1)
      continue;
    const VertexId lo = u < v ? u : v;
    const VertexId hi = u < v ? v : u;
    bool s1 = false, s2 = false;
    DD_PRAGMA(delegate)
    do {
      if (!s1) {
        if (atomicCAS(&locks[lo], 0, 1) == 0)
          s1 = true;
      }
      if (s1) {
        if (atomicCAS(&locks[hi], 0, 1) == 0) {
          __threadfence(); // acquire: the previous holders' writes are visible
          const long long r = residual[a];
          const long long d = excess[u] < r ? excess[u] : r;
          if (d > 0) {
            residual[a] -= static_cast<std::int32_t>(d);
            residual[twins[a]] += static_cast<std::int32_t>(d);
            excess[u] -= d;
            excess[v] += d;
          }
          __threadfence();
          atomicExch(&locks[lo], 0);
          atomicExch(&locks[hi], 0);
          s2 = true;
        }
      }
    } while (!(s1 && s2));
  }
}

namespace {

Status cuda_status(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return Status();
  return Status::error(graph::str_cat("push-relabel: ", what, ": ", cudaGetErrorString(err)));
}

template <class T> using Buffer = apps::DeviceArray<T>;

} // namespace

Expected<Result> push_relabel(const DeviceNetwork &network) {
  Result result;
  const graph::FlowNetwork &host = network.host();
  const std::uint32_t n = network.num_vertices();
  const std::uint32_t m = network.num_residual_arcs();
  if (n == 0)
    return result;
  const unsigned blocks = (n - 1) / kBlock + 1; // n > 0; n + kBlock - 1 may wrap

  std::vector<std::int32_t> residual;
  std::vector<long long> excess;
  initial_preflow(host, residual, excess);
  std::vector<std::uint32_t> height;

  Buffer<std::int32_t> d_residual;
  Buffer<long long> d_excess;
  Buffer<std::uint32_t> d_height, d_counters;
  Buffer<int> d_locks;
  for (cudaError_t err : {d_residual.allocate(m), d_excess.allocate(n), d_height.allocate(n),
                         d_counters.allocate(2), d_locks.allocate(n)})
    if (Status s = cuda_status(err, "cudaMalloc"); !s.ok())
      return s;
  if (m > 0)
    if (Status s = cuda_status(cudaMemcpy(d_residual.ptr, residual.data(), m * sizeof(std::int32_t),
                                          cudaMemcpyHostToDevice),
                               "uploading the preflow");
        !s.ok())
      return s;
  if (Status s = cuda_status(cudaMemcpy(d_excess.ptr, excess.data(), n * sizeof(long long),
                                        cudaMemcpyHostToDevice),
                             "uploading the preflow");
      !s.ok())
    return s;
  if (Status s = cuda_status(cudaMemset(d_locks.ptr, 0, n * sizeof(int)), "cudaMemset"); !s.ok())
    return s;

  apps::EventPair events;
  if (Status s = cuda_status(events.create(), "cudaEventCreate"); !s.ok())
    return s;
  if (Status s = cuda_status(cudaDeviceSynchronize(), "before the first launch"); !s.ok())
    return s;

  cudaEventRecord(events.start);
  for (const bool second_phase : {false, true}) {
    const std::uint32_t cap = second_phase ? 2 * n : n;
    std::uint64_t relabels = n; // a global relabel first
    for (;;) {
      if (relabels >= n) {
        // Exact heights from the residual network as it is now. Timed after
        // the last push finished, so the time is the relabel's alone.
        if (Status s = cuda_status(cudaDeviceSynchronize(), "global relabel"); !s.ok())
          return s;
        const auto relabel_start = std::chrono::steady_clock::now();
        if (result.rounds > 0 && m > 0)
          if (Status s = cuda_status(cudaMemcpy(residual.data(), d_residual.ptr,
                                                m * sizeof(std::int32_t), cudaMemcpyDeviceToHost),
                                     "global relabel");
              !s.ok())
            return s;
        global_relabel(host, residual, second_phase, height);
        if (Status s = cuda_status(cudaMemcpy(d_height.ptr, height.data(),
                                              n * sizeof(std::uint32_t), cudaMemcpyHostToDevice),
                                   "global relabel");
            !s.ok())
          return s;
        ++result.global_relabels;
        result.relabel_ms += std::chrono::duration<double, std::milli>(
                                 std::chrono::steady_clock::now() - relabel_start)
                                 .count();
        relabels = 0;
      }
      cudaMemsetAsync(d_counters.ptr, 0, 2 * sizeof(std::uint32_t));
      relabel<<<blocks, kBlock>>>(n, host.source, host.sink, cap, network.row_offsets(),
                                  network.heads(), d_residual.ptr, d_excess.ptr, d_height.ptr,
                                  d_counters.ptr);
      ++result.launches;
      std::uint32_t counters[2] = {0, 0};
      if (Status s = cuda_status(cudaMemcpy(counters, d_counters.ptr, sizeof counters,
                                            cudaMemcpyDeviceToHost),
                                 "round");
          !s.ok())
        return s;
      if (counters[0] == 0)
        break;
      relabels += counters[1];
      push<<<blocks, kBlock>>>(n, host.source, host.sink, cap, network.row_offsets(),
                               network.heads(), network.twins(), d_height.ptr, d_residual.ptr,
                               d_excess.ptr, d_locks.ptr);
      ++result.launches;
      ++result.rounds;
    }
  }
  cudaEventRecord(events.stop);
  if (Status s = cuda_status(cudaEventSynchronize(events.stop), "the kernels"); !s.ok())
    return s;
  if (Status s = cuda_status(cudaGetLastError(), "the kernels"); !s.ok())
    return s;
  float ms = 0;
  cudaEventElapsedTime(&ms, events.start, events.stop);
  result.ms = ms;

  if (m > 0)
    if (Status s = cuda_status(cudaMemcpy(residual.data(), d_residual.ptr,
                                          m * sizeof(std::int32_t), cudaMemcpyDeviceToHost),
                               "copying back");
        !s.ok())
      return s;
  if (Status s = cuda_status(cudaMemcpy(excess.data(), d_excess.ptr, n * sizeof(long long),
                                        cudaMemcpyDeviceToHost),
                             "copying back");
      !s.ok())
    return s;
  // No vertex but the ends may keep excess: the rounds end only when none
  // is active, and in the second phase every vertex with excess is.
  for (std::uint32_t v = 0; v < n; ++v)
    if (v != host.source && v != host.sink && excess[v] != 0)
      return Status::error(graph::str_cat("push-relabel: internal error: vertex ", v + 1,
                                          " ends with excess ", excess[v]));
  result.value = excess[host.sink];
  result.flows.resize(host.num_arcs());
  for (std::uint64_t i = 0; i < host.num_arcs(); ++i) {
    const graph::EdgeIndex a = host.arcs[i];
    result.flows[i] = std::int64_t{host.capacities[a]} - residual[a];
  }
  return result;
}

} // namespace dd::maxflow::DD_MAXFLOW_VARIANT
