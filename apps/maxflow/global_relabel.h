// The host side of push-relabel shared by both builds of push_relabel.cu:
// the initial preflow and the global relabel (docs/maxflow.md).
#ifndef DD_MAXFLOW_GLOBAL_RELABEL_H
#define DD_MAXFLOW_GLOBAL_RELABEL_H

#include <cstdint>
#include <vector>

#include "graph/flow_network.h"

namespace dd::maxflow {

/// The preflow push-relabel starts from: every residual arc out of the
/// source saturated. `residual` gets the residual capacities (per residual
/// arc), `excess` the excess of every vertex (the source's negative).
void initial_preflow(const graph::FlowNetwork &network, std::vector<std::int32_t> &residual,
                     std::vector<long long> &excess);

/// Exact heights by breadth-first search backwards along residual arcs:
/// a vertex that reaches the sink gets its distance to it; in the second
/// phase (`second_phase`) one that does not but reaches the source gets
/// num_vertices + its distance to the source; any other vertex gets the
/// phase's cap (num_vertices in the first phase, 2 * num_vertices in the
/// second), which makes it inactive. The source's height is num_vertices,
/// the sink's 0.
void global_relabel(const graph::FlowNetwork &network, const std::vector<std::int32_t> &residual,
                    bool second_phase, std::vector<std::uint32_t> &height);

} // namespace dd::maxflow

#endif // DD_MAXFLOW_GLOBAL_RELABEL_H
