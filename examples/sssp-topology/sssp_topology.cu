// Topology-driven single-source shortest paths (Bellman-Ford): every round,
// one thread per edge relaxes it with atomicMin, and the host repeats rounds
// until nothing changes. The kernel is annotated `monotonic`: distances only
// decrease while it runs, so the decoupler atomics pass turns the atomicMin
// into dd::atomic_min_filtered, which skips the atomic where the distance is
// already lower (exact; `monotonic(store)` would ask for the papers' guarded
// plain write, whose lost updates the next round redoes).
//
//   sssp_topology [--src S] [--seed S] [--block T] [--format F] [--base 0|1]
//                 [--symmetrize 0|1] [--verify 0|1] GRAPH
// Graphs without weights get weights in [1, 255] from --seed. Prints
// "id distance" for every vertex (INF when unreachable); with --verify 1
// (the default) compares with CPU Dijkstra and fails on any difference.
#include <climits>
#include <vector>

#include <dd/annotate.h>

#include "example_graph.h"
#include "graph/reference.h"
#include "graph/weights.h"

constexpr int Unreached = INT_MAX;

DD_PRAGMA(monotonic)
__global__ void relax_edges(const unsigned *src, const unsigned *dst,
                            const int *weight, int *dist,
                            unsigned long long edges, int *changed) {
  unsigned long long e = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (e >= edges)
    return;
  int du = dist[src[e]];
  if (du == Unreached)
    return;
  int candidate = du + weight[e];
  if (candidate < dist[dst[e]]) {
    atomicMin(&dist[dst[e]], candidate);
    *changed = 1;
  }
}

namespace {

const char Usage[] =
    "usage: sssp_topology [--src S] [--seed S] [--block T] [--format F]\n"
    "                     [--base 0|1] [--symmetrize 0|1] [--verify 0|1] GRAPH\n";

} // namespace

int main(int argc, char **argv) {
  dd::examples::Options opts(argc, argv, Usage);
  std::uint64_t source = opts.number("src", 0);
  std::uint64_t seed = opts.number("seed", 1);
  std::uint64_t block = opts.number("block", 256);
  dd::graph::ReadOptions read = dd::examples::graph_read_options(opts, true);
  bool verify = opts.number("verify", 1) != 0;
  std::string path = opts.positional(0);
  opts.finish();
  if (path.empty())
    opts.fail("no GRAPH given");
  if (block == 0 || block > 1024)
    opts.fail("--block is between 1 and 1024");

  dd::graph::Csr g = dd::examples::read_graph_or_exit(path, read);
  if (g.weight_type != dd::graph::WeightType::kInt32) {
    dd::graph::WeightOptions w;
    w.seed = seed;
    w.symmetric = read.symmetrize;
    dd::graph::Status s = dd::graph::assign_uniform_weights(g, w);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.message().c_str());
      return 1;
    }
  }
  std::uint64_t n = g.num_vertices(), m = g.num_edges();
  if (source >= n)
    opts.fail("--src is not a vertex of the graph");

  std::vector<unsigned> src(m);
  for (std::uint64_t v = 0; v < n; ++v)
    for (std::uint64_t e = g.row_offsets[v]; e < g.row_offsets[v + 1]; ++e)
      src[e] = unsigned(v);
  std::vector<int> dist(n, Unreached);
  dist[source] = 0;

  unsigned *dSrc, *dDst;
  int *dW, *dDist, *dChanged;
  DD_CUDA_CHECK(cudaMalloc(&dSrc, m * sizeof(unsigned) + 4));
  DD_CUDA_CHECK(cudaMalloc(&dDst, m * sizeof(unsigned) + 4));
  DD_CUDA_CHECK(cudaMalloc(&dW, m * sizeof(int) + 4));
  DD_CUDA_CHECK(cudaMalloc(&dDist, n * sizeof(int)));
  DD_CUDA_CHECK(cudaMalloc(&dChanged, sizeof(int)));
  DD_CUDA_CHECK(cudaMemcpy(dSrc, src.data(), m * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(dDst, g.col_indices.data(), m * sizeof(unsigned), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(dW, g.int_weights.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  DD_CUDA_CHECK(cudaMemcpy(dDist, dist.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  unsigned long long blocks = (m + block - 1) / block;
  int changed = 1;
  std::uint64_t rounds = 0;
  while (changed && m > 0) {
    DD_CUDA_CHECK(cudaMemset(dChanged, 0, sizeof(int)));
    relax_edges<<<unsigned(blocks), unsigned(block)>>>(dSrc, dDst, dW, dDist, m, dChanged);
    DD_CUDA_CHECK(cudaGetLastError());
    DD_CUDA_CHECK(cudaMemcpy(&changed, dChanged, sizeof(int), cudaMemcpyDeviceToHost));
    if (++rounds > n + 1) {
      std::fprintf(stderr, "sssp_topology: no fixed point after %llu rounds\n",
                   (unsigned long long)rounds);
      return 1;
    }
  }
  DD_CUDA_CHECK(cudaMemcpy(dist.data(), dDist, n * sizeof(int), cudaMemcpyDeviceToHost));

  for (std::uint64_t v = 0; v < n; ++v) {
    if (dist[v] == Unreached)
      std::printf("%llu INF\n", (unsigned long long)v);
    else
      std::printf("%llu %d\n", (unsigned long long)v, dist[v]);
  }
  std::fprintf(stderr, "sssp_topology: %llu rounds\n", (unsigned long long)rounds);
  int status = 0;
  if (verify) {
    dd::graph::Expected<std::vector<std::uint64_t>> ref =
        dd::graph::dijkstra(g, dd::graph::VertexId(source));
    if (!ref.ok()) {
      std::fprintf(stderr, "%s\n", ref.status().message().c_str());
      return 1;
    }
    std::uint64_t wrong = 0;
    for (std::uint64_t v = 0; v < n; ++v) {
      std::uint64_t expected = (*ref)[v];
      bool same = dist[v] == Unreached ? expected == dd::graph::kInfDistance
                                       : expected == std::uint64_t(dist[v]);
      wrong += !same;
    }
    if (wrong) {
      std::fprintf(stderr, "sssp_topology: %llu distances differ from Dijkstra\n",
                   (unsigned long long)wrong);
      status = 1;
    }
  }
  DD_CUDA_CHECK(cudaFree(dSrc));
  DD_CUDA_CHECK(cudaFree(dDst));
  DD_CUDA_CHECK(cudaFree(dW));
  DD_CUDA_CHECK(cudaFree(dDist));
  DD_CUDA_CHECK(cudaFree(dChanged));
  return status;
}
