// DeviceGraph: the undirected graph of mst.h copied to the GPU.
#include <cuda_runtime.h>

#include "common/cuda_host.cuh"
#include "mst/mst.h"

namespace dd::mst {

DeviceGraph::~DeviceGraph() { release(); }

void DeviceGraph::release() {
  cudaFree(row_offsets_);
  cudaFree(adj_vertex_);
  cudaFree(adj_edge_);
  cudaFree(edge_lo_);
  cudaFree(edge_hi_);
  cudaFree(edge_weight_);
  row_offsets_ = adj_edge_ = edge_weight_ = nullptr;
  adj_vertex_ = edge_lo_ = edge_hi_ = nullptr;
  host_ = UndirectedGraph();
}

namespace {

template <class T>
Status upload_array(T *&device, const std::vector<T> &host, const char *what) {
  if (const cudaError_t err = apps::upload(device, host); err != cudaSuccess)
    return Status::error(graph::str_cat("uploading the graph (", what,
                                        "): ", cudaGetErrorString(err)));
  return Status();
}

} // namespace

Status DeviceGraph::upload(const graph::Csr &csr) {
  release();
  Expected<UndirectedGraph> g = make_undirected(csr);
  if (!g.ok())
    return g.status();
  host_ = std::move(*g);
  Status s = upload_array(row_offsets_, host_.row_offsets, "row offsets");
  if (s.ok())
    s = upload_array(adj_vertex_, host_.adj_vertex, "adjacency");
  if (s.ok())
    s = upload_array(adj_edge_, host_.adj_edge, "adjacency edge ids");
  if (s.ok())
    s = upload_array(edge_lo_, host_.edge_lo, "edge endpoints");
  if (s.ok())
    s = upload_array(edge_hi_, host_.edge_hi, "edge endpoints");
  if (s.ok())
    s = upload_array(edge_weight_, host_.edge_weight, "edge weights");
  if (!s.ok())
    release();
  return s;
}

} // namespace dd::mst
