// The GPU engine of survey propagation (sp_gpu.h): device buffers, the
// round loop and its timing. The kernels are in sp_kernels.cu.
#include "sat/sp_gpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

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
  // gather by slot: edge e's factor goes to slot slot_of[e] of its
  // variable's list (the place of e in var_edges), whose sign is
  // slot_negative. Unallocated when gathering by edge.
  DeviceArray<unsigned> slot_of;
  DeviceArray<unsigned char> slot_negative;
  DeviceArray<double> slot_factor;
  DeviceArray<int> moved;            // the host loop's flag; the device loop's three
  DeviceArray<unsigned> loop_result; // the device loop's rounds and convergence
  apps::EventPair events;
};

GpuEngine::GpuEngine(Variant variant, RoundLoop loop) : variant_(variant), loop_(loop) {}
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
                    b.next_pos.allocate(v), b.next_neg.allocate(v), b.moved.allocate(3),
                    b.loop_result.allocate(2),
                    b.var_offsets.allocate(graph.var_offsets.size()),
                    b.var_edges.allocate(e), b.var_offsets.put(graph.var_offsets),
                    b.var_edges.put(graph.var_edges),
                    b.clause_offsets.put(graph.clause_offsets), b.edge_var.put(graph.edge_var),
                    b.edge_negative.put(graph.edge_negative), b.events.create()})
    if (err == cudaSuccess)
      err = step;
  if (err != cudaSuccess || variant_ != Variant::kGather)
    return cuda_status(err, "uploading the factor graph");
  // Gather by slot where the slots fit in L2: there the clause pass's
  // scattered stores stay on chip, and the variables' contiguous reads beat
  // reading the surveys by edge (H200: the rounds 1.0-1.5x faster at
  // 0.25-1.3 million edges, the most on the smallest). At 9 million edges (72 MB of slots, more than the H200's
  // L2) the stores went to memory and the rounds took 1.2-1.4x longer than
  // by edge (docs/PERF.md, "Survey propagation: the gather by slot").
  int device = 0, l2_bytes = 0;
  if ((err = cudaGetDevice(&device)) == cudaSuccess)
    err = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device);
  if (err != cudaSuccess)
    return cuda_status(err, "uploading the factor graph");
  if (e == 0 || e * sizeof(double) > static_cast<std::size_t>(l2_bytes))
    return Status();
  std::vector<unsigned> slot_of(e);
  std::vector<unsigned char> slot_negative(e);
  for (std::size_t k = 0; k < e; ++k) {
    slot_of[graph.var_edges[k]] = static_cast<unsigned>(k);
    slot_negative[k] = graph.edge_negative[graph.var_edges[k]];
  }
  for (auto step : {b.slot_of.allocate(e), b.slot_negative.allocate(e), b.slot_factor.allocate(e),
                    b.slot_of.put(slot_of), b.slot_negative.put(slot_negative)})
    if (err == cudaSuccess)
      err = step;
  return cuda_status(err, "uploading the factor graph");
}

bool GpuEngine::by_slot() const { return buffers_ && buffers_->slot_factor.ptr; }

GatherArgs GpuEngine::gather_args() const {
  const Buffers &b = *buffers_;
  GatherArgs g{};
  g.var_offsets = b.var_offsets.ptr;
  g.var_edges = b.var_edges.ptr;
  g.edge_negative = b.edge_negative.ptr;
  g.edge_live = b.edge_live.ptr;
  g.slot_negative = b.slot_negative.ptr; // null when gathering by edge
  g.slot_factor = b.slot_factor.ptr;
  return g;
}

void GpuEngine::fill_slots_if_gather(const FactorGraph &graph) {
  const std::uint64_t edges = graph.num_edges();
  if (!by_slot())
    return;
  fill_slots<<<static_cast<unsigned>((edges + kBlock - 1) / kBlock), kBlock>>>(
      buffers_->slot_factor.ptr, static_cast<unsigned>(edges));
  ++launches_;
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
  if (loop_ == RoundLoop::kDevice) {
    Expected<bool> ran = converge_on_device(graph, options, result);
    if (!ran.ok())
      return ran.status();
    if (*ran)
      return download(state, result);
    // No cooperative launch here: the host drives the rounds.
  }
  cudaEventRecord(b.events.start);
  fill_slots_if_gather(graph);
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
          b.eta_next.ptr, b.ratio.ptr, b.slot_of.ptr, b.slot_factor.ptr, options.epsilon, options.damping, b.moved.ptr);
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
      gather_products<<<var_blocks, kBlock>>>(vars, gather_args(), b.eta_next.ptr, b.next_pos.ptr,
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
  return download(state, result);
}

Expected<bool> GpuEngine::converge_on_device(const FactorGraph &graph, const SpOptions &options,
                                             Convergence &result) {
  Buffers &b = *buffers_;
  const bool gather = variant_ == Variant::kGather;
  const void *kernel = gather ? reinterpret_cast<const void *>(&sp_rounds_gather)
                              : reinterpret_cast<const void *>(&sp_rounds_atomic);
  unsigned resident = 0;
  bool cooperative = false;
  cudaError_t err = apps::cooperative_grid(kernel, kBlock, resident, cooperative);
  if (err != cudaSuccess)
    return cuda_status(err, "survey propagation");
  if (!cooperative || resident == 0)
    return false;
  // Every block resident (a grid sync waits for all): as many as fit, no
  // more than the clauses or variables need.
  const std::uint64_t most = std::max<std::uint64_t>(graph.num_clauses(), graph.num_vars);
  const unsigned needed = static_cast<unsigned>(std::max<std::uint64_t>(1, (most + kBlock - 1) / kBlock));
  const unsigned blocks = std::min(needed, resident);
  RoundArgs args{};
  args.num_clauses = graph.num_clauses();
  args.num_vars = graph.num_vars;
  args.max_rounds = static_cast<unsigned>(
      std::min<std::uint64_t>(options.max_rounds, std::numeric_limits<unsigned>::max()));
  args.clause_offsets = b.clause_offsets.ptr;
  args.clause_live = b.clause_live.ptr;
  args.edge_var = b.edge_var.ptr;
  args.edge_negative = b.edge_negative.ptr;
  args.edge_live = b.edge_live.ptr;
  args.gather = gather_args();
  args.slot_of = b.slot_of.ptr;
  args.slot_factor = b.slot_factor.ptr;
  args.eta[0] = b.eta.ptr, args.eta[1] = b.eta_next.ptr;
  args.prod_pos[0] = b.prod_pos.ptr, args.prod_pos[1] = b.next_pos.ptr;
  args.prod_neg[0] = b.prod_neg.ptr, args.prod_neg[1] = b.next_neg.ptr;
  args.ratio = b.ratio.ptr;
  args.epsilon = options.epsilon;
  args.damping = options.damping;
  args.moved = b.moved.ptr;
  args.rounds = b.loop_result.ptr;
  args.converged = reinterpret_cast<int *>(b.loop_result.ptr + 1);
  void *params[] = {&args};
  cudaMemsetAsync(b.moved.ptr, 0, 3 * sizeof(int));
  cudaEventRecord(b.events.start);
  fill_slots_if_gather(graph);
  err = cudaLaunchCooperativeKernel(kernel, dim3(blocks), dim3(kBlock), params, 0, nullptr);
  ++launches_;
  cudaEventRecord(b.events.stop);
  if (err == cudaSuccess)
    err = cudaEventSynchronize(b.events.stop);
  if (err != cudaSuccess)
    return cuda_status(err, "survey propagation");
  unsigned out[2] = {0, 0};
  if ((err = cudaMemcpy(out, b.loop_result.ptr, sizeof out, cudaMemcpyDeviceToHost)) != cudaSuccess)
    return cuda_status(err, "survey propagation");
  float ms = 0;
  cudaEventElapsedTime(&ms, b.events.start, b.events.stop);
  result.ms = ms;
  result.rounds = out[0];
  result.converged = out[1] != 0;
  // Round r wrote buffers r & 1: after an odd number the next ones hold the
  // state, as after the host loop's swaps.
  if (out[0] % 2 == 1) {
    std::swap(b.eta.ptr, b.eta_next.ptr);
    std::swap(b.prod_pos.ptr, b.next_pos.ptr);
    std::swap(b.prod_neg.ptr, b.next_neg.ptr);
  }
  return true;
}

Expected<Convergence> GpuEngine::download(SpState &state, const Convergence &result) {
  Buffers &b = *buffers_;
  cudaError_t err = cudaSuccess;

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
