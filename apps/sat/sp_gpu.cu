// The GPU engine of survey propagation (sp_gpu.h): device buffers, the
// round loop and its timing. The kernels are in sp_kernels.cu.
#include "sat/sp_gpu.h"

#include <cuda_runtime.h>

#include <utility>

#include "common/cuda_host.cuh"
#include "sat/sp_kernels.h"

namespace dd::sat::gpu {

using dd::graph::str_cat;

namespace {

constexpr unsigned kBlock = 256;

using apps::DeviceArray;

Status cuda_status(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return Status();
  return Status::error(str_cat(what, ": ", cudaGetErrorString(err)));
}

} // namespace

struct GpuEngine::Buffers {
  DeviceArray<unsigned> clause_offsets, edge_var, var_offsets, var_edges;
  DeviceArray<unsigned char> edge_negative, clause_live, edge_live;
  DeviceArray<double> eta, eta_next, ratio, prod_pos, prod_neg, next_pos, next_neg;
  DeviceArray<int> moved;
  apps::EventPair events;
};

GpuEngine::GpuEngine(Variant variant) : variant_(variant) {}
GpuEngine::~GpuEngine() = default;

Status GpuEngine::upload(const FactorGraph &graph) {
  buffers_ = std::make_unique<Buffers>();
  Buffers &b = *buffers_;
  const std::size_t c = graph.num_clauses(), e = graph.num_edges(), v = graph.num_vars;
  cudaError_t err = cudaSuccess;
  for (auto step : {b.clause_offsets.allocate(c + 1), b.edge_var.allocate(e),
                    b.edge_negative.allocate(e), b.clause_live.allocate(c),
                    b.edge_live.allocate(e), b.eta.allocate(e), b.eta_next.allocate(e),
                    b.ratio.allocate(e), b.prod_pos.allocate(v), b.prod_neg.allocate(v),
                    b.next_pos.allocate(v), b.next_neg.allocate(v), b.moved.allocate(1),
                    b.var_offsets.allocate(graph.var_offsets.size()),
                    b.var_edges.allocate(e), b.var_offsets.put(graph.var_offsets),
                    b.var_edges.put(graph.var_edges),
                    b.clause_offsets.put(graph.clause_offsets), b.edge_var.put(graph.edge_var),
                    b.edge_negative.put(graph.edge_negative), b.events.create()})
    if (err == cudaSuccess)
      err = step;
  return cuda_status(err, "uploading the factor graph");
}

Expected<Convergence> GpuEngine::converge(const FactorGraph &graph, SpState &state,
                                          const SpOptions &options) {
  if (!buffers_)
    return Status::error("internal error: the factor graph was not uploaded");
  Buffers &b = *buffers_;
  cudaError_t err = cudaSuccess;
  for (auto step : {b.eta.put(state.eta), b.prod_pos.put(state.prod_pos),
                    b.prod_neg.put(state.prod_neg), b.clause_live.put(state.clause_live),
                    b.edge_live.put(state.edge_live)})
    if (err == cudaSuccess)
      err = step;
  if (err != cudaSuccess)
    return cuda_status(err, "uploading the surveys");

  const unsigned clauses = graph.num_clauses();
  const unsigned vars = graph.num_vars;
  const unsigned clause_blocks = static_cast<unsigned>((std::uint64_t{clauses} + kBlock - 1) / kBlock);
  const unsigned var_blocks = static_cast<unsigned>((std::uint64_t{vars} + kBlock - 1) / kBlock);
  Convergence result;
  cudaEventRecord(b.events.start);
  while (result.rounds < options.max_rounds && !result.converged) {
    ++result.rounds;
    if (var_blocks > 0 && variant_ != Variant::kGather) {
      reset_products<<<var_blocks, kBlock>>>(b.next_pos.ptr, b.next_neg.ptr, vars);
      ++launches_;
    }
    cudaMemsetAsync(b.moved.ptr, 0, sizeof(int));
    if (clause_blocks > 0 && variant_ == Variant::kGather) {
      sp_round_surveys<<<clause_blocks, kBlock>>>(
          clauses, b.clause_offsets.ptr, b.clause_live.ptr, b.edge_var.ptr,
          b.edge_negative.ptr, b.edge_live.ptr, b.prod_pos.ptr, b.prod_neg.ptr, b.eta.ptr,
          b.eta_next.ptr, b.ratio.ptr, options.epsilon, options.damping, b.moved.ptr);
      ++launches_;
    } else if (clause_blocks > 0) {
      sp_round_atomic<<<clause_blocks, kBlock>>>(clauses, b.clause_offsets.ptr, b.clause_live.ptr,
                                        b.edge_var.ptr, b.edge_negative.ptr,
                                        b.edge_live.ptr, b.prod_pos.ptr, b.prod_neg.ptr,
                                        b.eta.ptr, b.eta_next.ptr, b.ratio.ptr,
                                        b.next_pos.ptr, b.next_neg.ptr, options.epsilon,
                                        options.damping, b.moved.ptr);
      ++launches_;
    }
    if (var_blocks > 0 && variant_ == Variant::kGather) {
      gather_products<<<var_blocks, kBlock>>>(vars, b.var_offsets.ptr, b.var_edges.ptr,
                                              b.edge_negative.ptr, b.edge_live.ptr,
                                              b.eta_next.ptr, b.next_pos.ptr,
                                              b.next_neg.ptr);
      ++launches_;
    }
    int moved = 0;
    if ((err = cudaMemcpy(&moved, b.moved.ptr, sizeof(int), cudaMemcpyDeviceToHost)) !=
        cudaSuccess)
      return cuda_status(err, "survey propagation round");
    // The new surveys and products become the current ones (Jacobi).
    std::swap(b.eta.ptr, b.eta_next.ptr);
    std::swap(b.prod_pos.ptr, b.next_pos.ptr);
    std::swap(b.prod_neg.ptr, b.next_neg.ptr);
    result.converged = moved == 0;
  }
  cudaEventRecord(b.events.stop);
  if ((err = cudaEventSynchronize(b.events.stop)) != cudaSuccess)
    return cuda_status(err, "survey propagation");
  float ms = 0;
  cudaEventElapsedTime(&ms, b.events.start, b.events.stop);
  result.ms = ms;

  // Dead edges' surveys are not in the device's buffer (only live edges are
  // written each round): keep the host's.
  std::vector<double> eta;
  for (auto step : {b.eta.get(eta, b.eta.size), b.prod_pos.get(state.prod_pos, b.prod_pos.size), b.prod_neg.get(state.prod_neg, b.prod_neg.size)})
    if (err == cudaSuccess)
      err = step;
  if (err != cudaSuccess)
    return cuda_status(err, "downloading the surveys");
  for (std::size_t e = 0; e < eta.size(); ++e)
    if (state.edge_live[e])
      state.eta[e] = eta[e];
  return result;
}

} // namespace dd::sat::gpu
