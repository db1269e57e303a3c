// Max-flow networks: the residual-graph CSR that push-relabel and Dinic work
// on, the DIMACS max-flow reader and writer.
//
//   auto net = dd::graph::read_max_flow("rlg.max");
//   if (!net.ok()) { std::fprintf(stderr, "%s\n", net.status().message().c_str()); ... }
//   for (EdgeIndex e = net->row_offsets[v]; e < net->row_offsets[v + 1]; ++e)
//     ... net->heads[e], net->capacities[e], net->twins[e] ...
//
// Every arc (u, v, c) of the input gives two residual arcs: the forward arc
// u -> v with capacity c, stored among u's arcs, and its twin v -> u with
// capacity 0, stored among v's arcs; twins[] links each to the other. With a
// flow f on the arc, the residual capacity of the forward arc is c - f and
// that of the twin is f. Parallel and antiparallel arcs are kept as separate
// arcs, each with its own twin, so no capacity is ever merged or lost.
// Self loops cannot carry flow from s to t and are dropped (counted in
// dropped_self_loops). The residual arcs of a vertex appear in input order of
// the arcs they come from, so a file read twice gives the identical network.
//
// DIMACS max-flow format (1st DIMACS Implementation Challenge) as read here:
//   c <comment>              anywhere; blank lines are skipped too
//   p max <N> <M>            exactly once, before every n and a line
//   n <ID> s                 the source, exactly once
//   n <ID> t                 the sink, exactly once; not the source
//   a <U> <V> <CAP>          exactly M arcs; 1-based ids; 0 <= CAP < 2^31
// Errors are "FILE:LINE: message" as for the graph formats (docs/graphs.md).
#ifndef DD_GRAPH_FLOW_NETWORK_H
#define DD_GRAPH_FLOW_NETWORK_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/csr.h"
#include "graph/errors.h"
#include "graph/graph_io.h"

namespace dd::graph {

/// Arc capacities: non-negative int32, as GPU push-relabel codes keep them.
/// Sums of capacities and flows (excesses, the flow value) need 64 bits.
using Capacity = std::int32_t;
inline constexpr Capacity kMaxCapacity = 0x7fffffff;

/// The most arcs a network may have: flow sums then stay below 2^63.
inline constexpr std::uint64_t kMaxArcs = 0xffffffffull;

/// A flow network as a residual-graph CSR (see the file comment).
struct FlowNetwork {
  VertexId source = 0;
  VertexId sink = 0;
  /// num_vertices + 1 entries: the residual arcs of v are
  /// [row_offsets[v], row_offsets[v + 1]).
  std::vector<EdgeIndex> row_offsets = std::vector<EdgeIndex>(1, 0);
  /// 2 * num_arcs entries each, indexed by residual arc.
  std::vector<VertexId> heads;
  std::vector<EdgeIndex> twins;
  std::vector<Capacity> capacities;  ///< c for a forward arc, 0 for a twin
  /// num_arcs entries: the forward residual arc of input arc i (input order,
  /// self loops excluded). Per-arc flows are indexed like this array.
  std::vector<EdgeIndex> arcs;
  /// Self loops of the input, dropped.
  std::uint64_t dropped_self_loops = 0;

  std::uint64_t num_vertices() const {
    return row_offsets.empty() ? 0 : row_offsets.size() - 1;
  }
  std::uint64_t num_arcs() const { return arcs.size(); }
  std::uint64_t num_residual_arcs() const { return heads.size(); }
  /// Tail, head and capacity of input arc i (i < num_arcs()).
  VertexId arc_tail(std::uint64_t i) const { return heads[twins[arcs[i]]]; }
  VertexId arc_head(std::uint64_t i) const { return heads[arcs[i]]; }
  Capacity arc_capacity(std::uint64_t i) const { return capacities[arcs[i]]; }
};

/// The arcs of a network before it is built: parallel arrays, 0-based ids.
struct ArcList {
  std::vector<VertexId> tails;
  std::vector<VertexId> heads;
  std::vector<Capacity> capacities;

  std::uint64_t size() const { return tails.size(); }
  void reserve(std::uint64_t n) {
    tails.reserve(n);
    heads.reserve(n);
    capacities.reserve(n);
  }
  void add(VertexId u, VertexId v, Capacity c) {
    tails.push_back(u);
    heads.push_back(v);
    capacities.push_back(c);
  }
};

/// Builds the residual CSR of `arcs` over `num_vertices` vertices. Errors when
/// an id is out of range, a capacity is negative, source == sink, or the sizes
/// exceed kMaxVertices / kMaxArcs. Self loops are dropped.
Expected<FlowNetwork> build_flow_network(const ArcList& arcs, std::uint64_t num_vertices,
                                         VertexId source, VertexId sink);

/// Checks the invariants of a FlowNetwork (offsets, ids, twins pointing at
/// each other with swapped ends, twins of forward arcs having capacity 0,
/// arcs[] naming distinct forward arcs). The message names the first problem.
Status validate(const FlowNetwork& network);

/// Parses `data` as a DIMACS max-flow file called `name` (used in messages).
/// Uses options.max_vertices; the format is always DIMACS max-flow.
Expected<FlowNetwork> parse_max_flow(std::string_view data, std::string_view name,
                                     const ReadOptions& options = {});

/// Reads the DIMACS max-flow file `path` (options.max_stream_bytes bounds a
/// stream, as for read_graph()).
Expected<FlowNetwork> read_max_flow(const std::string& path, const ReadOptions& options = {});

/// Writes `network` as DIMACS max-flow text to `path` (an OutputFile, file.h):
/// each line of `comment` as a "c" line, then "p max N M", "n S s", "n T t"
/// and one "a U V CAP" line per arc in input order, 1-based. Errors on an
/// invalid network or an I/O failure.
Status write_max_flow(const FlowNetwork& network, const std::string& path,
                      std::string_view comment = {});

/// The text write_max_flow() writes (for small networks and tests).
Expected<std::string> max_flow_text(const FlowNetwork& network, std::string_view comment = {});

} // namespace dd::graph

#endif // DD_GRAPH_FLOW_NETWORK_H
