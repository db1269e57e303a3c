// CPU maximum flow: Dinic's algorithm as the reference, and checks that a flow
// (from any program, the GPU push-relabel included) is feasible and maximum.
//
// Flows are given per arc of the network, in input order (FlowNetwork::arcs,
// self loops excluded), as int64 so that a checker can report any value a
// buggy program produces. Sums (excesses, the flow value) are int64: a
// network has fewer than 2^32 arcs of capacity below 2^31, so they cannot
// overflow.
//
// Messages name vertices by their 1-based DIMACS ids and arcs by their
// 1-based position among the network's arcs, with the arc's "a U V CAP" line.
#ifndef DD_GRAPH_MAX_FLOW_H
#define DD_GRAPH_MAX_FLOW_H

#include <cstdint>
#include <vector>

#include "graph/errors.h"
#include "graph/flow_network.h"

namespace dd::graph {

struct MaxFlowResult {
  /// The flow value: the net flow out of the source (= into the sink).
  std::int64_t value = 0;
  /// One flow per arc (FlowNetwork::arcs order), 0 <= flows[i] <= capacity.
  std::vector<std::int64_t> flows;
};

/// A maximum flow by Dinic's algorithm (BFS level graph, blocking flow by
/// depth-first search with current-arc pointers, iterative so that long
/// paths need no deep stack): O(V^2 E). Errors only on an invalid network.
Expected<MaxFlowResult> max_flow_dinic(const FlowNetwork& network);

/// Checks that `flows` (one per arc) is a feasible flow: 0 <= flow <= capacity
/// on every arc, and inflow == outflow at every vertex but the source and the
/// sink. Returns the flow value (net flow out of the source) or the first
/// violation.
Expected<std::int64_t> verify_flow(const FlowNetwork& network,
                                   const std::vector<std::int64_t>& flows);

/// Checks that a feasible flow (verify_flow() passed) is maximum: no path of
/// positive residual capacity leads from the source to the sink (max-flow
/// min-cut). O(V + E); an error names the sink's distance when a path exists.
Status check_maximum(const FlowNetwork& network, const std::vector<std::int64_t>& flows);

/// The certificate behind check_maximum(): S, the vertices that a path of
/// positive residual capacity reaches from the source, and the capacity of
/// the cut (S, V \ S), the sum of the capacities of the arcs that leave S.
/// For a feasible flow it equals the flow's value exactly when the flow is
/// maximum (max-flow min-cut), so a caller that compares the two has proved
/// the value without a second max-flow algorithm. O(V + E); the same error
/// as check_maximum() when the sink is reachable.
Expected<std::int64_t> min_cut_capacity(const FlowNetwork& network,
                                        const std::vector<std::int64_t>& flows);

/// Proves that `flows` is a maximum flow of value `value` without a second
/// max-flow algorithm: verify_flow() (feasible), its value `value`, and
/// min_cut_capacity() equal to it (max-flow min-cut). O(V + E). An error
/// says which part failed.
Status certify_max_flow(const FlowNetwork& network, const std::vector<std::int64_t>& flows,
                        std::int64_t value);

} // namespace dd::graph

#endif // DD_GRAPH_MAX_FLOW_H
