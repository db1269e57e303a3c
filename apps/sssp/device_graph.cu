// DeviceGraph: the CSR copied to the GPU with 32-bit offsets.
#include <algorithm>
#include <limits>
#include <vector>

#include "sssp/common.cuh"

namespace dd::sssp {

DeviceGraph::~DeviceGraph() { release(); }

void DeviceGraph::release() {
  cudaFree(row_offsets_);
  cudaFree(col_indices_);
  cudaFree(weights_);
  cudaFree(edge_sources_);
  cudaFree(in_offsets_);
  cudaFree(in_sources_);
  row_offsets_ = col_indices_ = weights_ = edge_sources_ = in_offsets_ = in_sources_ = nullptr;
  num_vertices_ = num_edges_ = max_degree_ = max_weight_ = 0;
  mean_weight_ = 0;
}

bool road_like(const DeviceGraph &graph) {
  return graph.num_edges() < 8ull * graph.num_vertices();
}

bool has_hubs(const DeviceGraph &graph) {
  const std::uint64_t n = graph.num_vertices(), m = graph.num_edges();
  return n > 0 && !road_like(graph) && graph.max_degree() > 16 * (m / n);
}

bool DeviceGraph::needs_wide_distances() const {
  // A shortest path is simple: at most |V| - 1 edges of at most max_weight.
  const std::uint64_t longest =
      std::uint64_t(num_vertices_ > 0 ? num_vertices_ - 1 : 0) * max_weight_;
  return longest >= std::numeric_limits<std::uint32_t>::max();
}

namespace {

template <class T> cudaError_t upload_array(T *&device, const T *host, std::size_t count) {
  cudaError_t err = cudaMalloc(&device, (count > 0 ? count : 1) * sizeof(T));
  if (err == cudaSuccess && count > 0)
    err = cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice);
  return err;
}

__global__ void fill_ones(std::uint32_t *out, std::size_t count) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = 1;
}

} // namespace

Status DeviceGraph::upload(const graph::Csr &csr, Parts parts) {
  release();
  Expected<std::vector<std::uint32_t>> offsets = graph::narrow_row_offsets(csr);
  if (!offsets.ok())
    return Status::error(graph::str_cat("the GPU algorithms use 32-bit edge indices: ",
                                        offsets.status().message()));
  if (parts.weights && parts.unit_weights)
    return Status::error("DeviceGraph: graph weights and unit weights are exclusive");
  if (parts.weights && csr.weight_type != graph::WeightType::kInt32)
    return Status::error("the GPU shortest-path algorithms need int32 edge weights");

  const std::size_t n = csr.num_vertices(), m = csr.num_edges();
  std::uint64_t weight_sum = 0;
  if (parts.weights) {
    for (const std::int32_t w : csr.int_weights) { // never negative (Csr's invariant)
      weight_sum += std::uint32_t(w);
      max_weight_ = std::max(max_weight_, std::uint32_t(w));
    }
    mean_weight_ = m > 0 ? double(weight_sum) / double(m) : 0.0;
  }
  DD_SSSP_CUDA(upload_array(row_offsets_, offsets->data(), n + 1));
  DD_SSSP_CUDA(upload_array(col_indices_, csr.col_indices.data(), m));
  if (parts.weights) // int32 >= 0 has the bits of the same uint32
    DD_SSSP_CUDA(upload_array(weights_,
                              reinterpret_cast<const std::uint32_t *>(csr.int_weights.data()), m));
  if (parts.unit_weights) {
    DD_SSSP_CUDA(cudaMalloc(&weights_, (m > 0 ? m : 1) * sizeof(std::uint32_t)));
    if (m > 0) {
      fill_ones<<<unsigned(std::min<std::size_t>((m + 255) / 256, 4096)), 256>>>(weights_, m);
      DD_SSSP_CUDA(cudaGetLastError());
      DD_SSSP_CUDA(cudaDeviceSynchronize());
      max_weight_ = 1;
      mean_weight_ = 1.0;
    }
  }
  if (parts.edge_sources) {
    std::vector<VertexId> sources(m);
    for (std::size_t v = 0; v < n; ++v)
      for (std::uint32_t e = (*offsets)[v]; e < (*offsets)[v + 1]; ++e)
        sources[e] = VertexId(v);
    DD_SSSP_CUDA(upload_array(edge_sources_, sources.data(), m));
  }
  if (parts.in_edges) {
    // The transpose by counting: in-degrees, their prefix sum, then each
    // edge u -> v placed among v's in-edges (sources in increasing order).
    std::vector<std::uint32_t> in_offsets(n + 1, 0);
    for (const VertexId v : csr.col_indices)
      ++in_offsets[v + 1];
    for (std::size_t v = 0; v < n; ++v)
      in_offsets[v + 1] += in_offsets[v];
    std::vector<std::uint32_t> next(in_offsets.begin(), in_offsets.end() - 1);
    std::vector<VertexId> in_sources(m);
    for (std::size_t u = 0; u < n; ++u)
      for (std::uint32_t e = (*offsets)[u]; e < (*offsets)[u + 1]; ++e)
        in_sources[next[csr.col_indices[e]]++] = VertexId(u);
    DD_SSSP_CUDA(upload_array(in_offsets_, in_offsets.data(), n + 1));
    DD_SSSP_CUDA(upload_array(in_sources_, in_sources.data(), m));
  }
  for (std::size_t v = 0; v < n; ++v)
    max_degree_ = std::max(max_degree_, (*offsets)[v + 1] - (*offsets)[v]);
  num_vertices_ = std::uint32_t(n);
  num_edges_ = std::uint32_t(m);
  return Status();
}

} // namespace dd::sssp
