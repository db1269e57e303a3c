// DeviceNetwork: the residual network of maxflow.h copied to the GPU.
#include <cuda_runtime.h>

#include "common/cuda_host.cuh"
#include "maxflow/maxflow.h"

namespace dd::maxflow {

DeviceNetwork::~DeviceNetwork() { release(); }

void DeviceNetwork::release() {
  cudaFree(row_offsets_);
  cudaFree(heads_);
  cudaFree(twins_);
  cudaFree(capacities_);
  row_offsets_ = twins_ = nullptr;
  heads_ = nullptr;
  capacities_ = nullptr;
  host_ = graph::FlowNetwork();
}

namespace {

template <class T>
Status upload_array(T *&device, const std::vector<T> &host, const char *what) {
  if (const cudaError_t err = apps::upload(device, host); err != cudaSuccess)
    return Status::error(graph::str_cat("uploading the network (", what,
                                        "): ", cudaGetErrorString(err)));
  return Status();
}

// 64-bit arc indices as the device's 32-bit ones (checked by the caller).
std::vector<std::uint32_t> narrow(const std::vector<graph::EdgeIndex> &wide) {
  return std::vector<std::uint32_t>(wide.begin(), wide.end());
}

} // namespace

Status DeviceNetwork::upload(const graph::FlowNetwork &network) {
  release();
  if (Status s = graph::validate(network); !s.ok())
    return s;
  // Heights go up to 2n in 32 bits; arc indices are 32-bit.
  if (network.num_vertices() >= (std::uint64_t{1} << 31))
    return Status::error(graph::str_cat("the network has ", network.num_vertices(),
                                        " vertices; the GPU push-relabel takes fewer than 2^31"));
  if (network.num_residual_arcs() >= (std::uint64_t{1} << 32))
    return Status::error(graph::str_cat("the network has ", network.num_residual_arcs(),
                                        " residual arcs; the GPU push-relabel takes fewer "
                                        "than 2^32"));
  host_ = network;
  Status s = upload_array(row_offsets_, narrow(host_.row_offsets), "row offsets");
  if (s.ok())
    s = upload_array(heads_, host_.heads, "heads");
  if (s.ok())
    s = upload_array(twins_, narrow(host_.twins), "twins");
  if (s.ok())
    s = upload_array(capacities_, host_.capacities, "capacities");
  if (!s.ok())
    release();
  return s;
}

} // namespace dd::maxflow
