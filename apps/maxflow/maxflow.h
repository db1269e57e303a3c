// GPU maximum flow: push-relabel with node locks, the dissertation's MaxFlow
// benchmark (ch. 4.5: "Nodes are parallelized to threads, and fine-grained
// locks are used to prevent the same node being worked by two or more
// threads"; docs/maxflow.md).
//
//   auto net = dd::graph::read_max_flow("rlg.max");
//   dd::maxflow::DeviceNetwork d;
//   if (Status s = d.upload(*net); !s.ok()) ...
//   Expected<Result> r = dd::maxflow::locks::push_relabel(d);     // as written
//   Expected<Result> r = dd::maxflow::delegate::push_relabel(d);  // through the delegate pass
//   r->value, r->flows                                            // the flow
//
// The two entry points are one source, apps/maxflow/push_relabel.cu,
// compiled twice: as written (namespace dd::maxflow::locks) and rewritten at
// build time by `decoupler --passes=delegate` (namespace
// dd::maxflow::delegate), whose launcher chooses between the delegated
// kernel and the original by DD_DELEGATE_POLICY (docs/delegate-pass.md).
//
// Plain C++17 (no CUDA types), so the command and tests can include it.
#ifndef DD_MAXFLOW_MAXFLOW_H
#define DD_MAXFLOW_MAXFLOW_H

#include <cstdint>
#include <vector>

#include "graph/errors.h"
#include "graph/flow_network.h"

namespace dd::maxflow {

using graph::Expected;
using graph::Status;
using graph::VertexId;

/// The residual network in device memory (offsets, heads, twins,
/// capacities as 32-bit arrays), with its host copy, which the host's global
/// relabel walks. Owned; move-only.
class DeviceNetwork {
public:
  DeviceNetwork() = default;
  DeviceNetwork(const DeviceNetwork &) = delete;
  DeviceNetwork &operator=(const DeviceNetwork &) = delete;
  ~DeviceNetwork();

  /// Copies `network` to the device. Errors on an invalid network, one with
  /// 2^32 or more residual arcs (32-bit arc indices on the device), or a CUDA
  /// failure (the message names the call).
  Status upload(const graph::FlowNetwork &network);

  const graph::FlowNetwork &host() const { return host_; }
  std::uint32_t num_vertices() const { return std::uint32_t(host_.num_vertices()); }
  std::uint32_t num_residual_arcs() const { return std::uint32_t(host_.num_residual_arcs()); }

  // Device pointers (null for a network without arcs).
  const std::uint32_t *row_offsets() const { return row_offsets_; }
  const VertexId *heads() const { return heads_; }
  const std::uint32_t *twins() const { return twins_; }
  const std::int32_t *capacities() const { return capacities_; }

private:
  void release();

  graph::FlowNetwork host_;
  std::uint32_t *row_offsets_ = nullptr;
  VertexId *heads_ = nullptr;
  std::uint32_t *twins_ = nullptr;
  std::int32_t *capacities_ = nullptr;
};

/// What a run returns.
struct Result {
  std::int64_t value = 0;           ///< the flow value (the sink's excess)
  std::vector<std::int64_t> flows;  ///< per input arc (FlowNetwork::arcs order)
  /// GPU time in milliseconds, by CUDA events, from the first launch to the
  /// end of the last, including the host's reads of the per-round counters
  /// and the global relabels (copies and the host BFS); excluding
  /// allocation, the upload and the copy back of the flow.
  double ms = 0;
  std::uint64_t rounds = 0;           ///< push + relabel rounds, both phases
  std::uint64_t global_relabels = 0;  ///< host BFS relabels
  std::uint64_t launches = 0;         ///< kernel launches
  /// Of `ms`, the host's wall-clock time in the global relabels (the
  /// residuals copied back, the BFS, the heights copied up), after the GPU
  /// finished the round before: the part of a run that is the same work
  /// for every way of pushing, and that varies with the host's load.
  double relabel_ms = 0;
};

// One entry point per build of push_relabel.cu (docs/maxflow.md). Each call
// allocates its own working memory, so calls are independent and may be
// repeated (warm-up, timing).
namespace locks {
/// Push-relabel as written: a thread per active node pushes under the
/// try-locks of the two nodes of the arc.
Expected<Result> push_relabel(const DeviceNetwork &network);
} // namespace locks
namespace delegate {
/// The same source through `decoupler --passes=delegate`.
Expected<Result> push_relabel(const DeviceNetwork &network);
} // namespace delegate

} // namespace dd::maxflow

#endif // DD_MAXFLOW_MAXFLOW_H
