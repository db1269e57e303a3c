#include "graph/flow_network.h"

#include <charconv>

#include "graph/file.h"

namespace dd::graph {

Expected<FlowNetwork> build_flow_network(const ArcList& arcs, std::uint64_t num_vertices,
                                         VertexId source, VertexId sink) {
  const std::uint64_t m = arcs.size();
  if (arcs.heads.size() != m || arcs.capacities.size() != m)
    return Status::error(str_cat("arc list has ", m, " tails, ", arcs.heads.size(),
                                 " heads and ", arcs.capacities.size(), " capacities"));
  if (num_vertices > kMaxVertices)
    return Status::error(str_cat(num_vertices, " vertices, more than the ", kMaxVertices,
                                 " a 32-bit id allows"));
  if (m > kMaxArcs)
    return Status::error(str_cat(m, " arcs, more than the ", kMaxArcs,
                                 " a flow network may have"));
  if (source >= num_vertices || sink >= num_vertices)
    return Status::error(str_cat("source ", source, " or sink ", sink, " out of range (",
                                 num_vertices, " vertices)"));
  if (source == sink)
    return Status::error(str_cat("the source and the sink are the same vertex ", source));

  FlowNetwork net;
  net.source = source;
  net.sink = sink;
  net.row_offsets.assign(num_vertices + 1, 0);
  // Each arc puts its forward residual arc at its tail and its twin at its
  // head: count both, prefix-sum, then place them in input order.
  std::uint64_t kept = 0;
  for (std::uint64_t i = 0; i < m; ++i) {
    const VertexId u = arcs.tails[i];
    const VertexId v = arcs.heads[i];
    if (u >= num_vertices || v >= num_vertices)
      return Status::error(str_cat("arc ", i, " (", u, ", ", v, ") out of range (",
                                   num_vertices, " vertices)"));
    if (arcs.capacities[i] < 0)
      return Status::error(str_cat("arc ", i, " (", u, ", ", v, ") has negative capacity ",
                                   arcs.capacities[i]));
    if (u == v)
      continue;
    ++net.row_offsets[u + 1];
    ++net.row_offsets[v + 1];
    ++kept;
  }
  for (std::uint64_t v = 0; v < num_vertices; ++v)
    net.row_offsets[v + 1] += net.row_offsets[v];

  net.heads.resize(2 * kept);
  net.twins.resize(2 * kept);
  net.capacities.resize(2 * kept);
  net.arcs.resize(kept);
  std::vector<EdgeIndex> next(net.row_offsets.begin(), net.row_offsets.end() - 1);
  std::uint64_t k = 0;
  for (std::uint64_t i = 0; i < m; ++i) {
    const VertexId u = arcs.tails[i];
    const VertexId v = arcs.heads[i];
    if (u == v)
      continue;
    const EdgeIndex forward = next[u]++;
    const EdgeIndex backward = next[v]++;
    net.heads[forward] = v;
    net.heads[backward] = u;
    net.twins[forward] = backward;
    net.twins[backward] = forward;
    net.capacities[forward] = arcs.capacities[i];
    net.capacities[backward] = 0;
    net.arcs[k++] = forward;
  }
  net.dropped_self_loops = m - kept;
  return net;
}

Status validate(const FlowNetwork& net) {
  if (net.row_offsets.empty() || net.row_offsets[0] != 0)
    return Status::error("row offsets must start with 0");
  const std::uint64_t n = net.num_vertices();
  const std::uint64_t r = net.heads.size();
  if (net.twins.size() != r || net.capacities.size() != r)
    return Status::error(str_cat(r, " residual heads but ", net.twins.size(), " twins and ",
                                 net.capacities.size(), " capacities"));
  if (net.row_offsets[n] != r)
    return Status::error(str_cat("the last row offset is ", net.row_offsets[n], " but there are ",
                                 r, " residual arcs"));
  if (r != 2 * net.arcs.size())
    return Status::error(str_cat(r, " residual arcs for ", net.arcs.size(),
                                 " arcs (want twice as many)"));
  if (net.source >= n || net.sink >= n || net.source == net.sink)
    return Status::error(str_cat("source ", net.source, " and sink ", net.sink,
                                 " must be distinct vertices below ", n));
  for (std::uint64_t v = 0; v < n; ++v) {
    if (net.row_offsets[v + 1] < net.row_offsets[v])
      return Status::error(str_cat("vertex ", v, ": row offsets decrease"));
    for (EdgeIndex e = net.row_offsets[v]; e < net.row_offsets[v + 1]; ++e) {
      const EdgeIndex t = net.twins[e];
      if (net.heads[e] >= n || t >= r || t == e || net.twins[t] != e ||
          net.heads[t] != v || net.heads[e] == v)
        return Status::error(str_cat("vertex ", v, ": residual arc ", e,
                                     " and its twin do not mirror each other"));
      if (net.capacities[e] < 0)
        return Status::error(str_cat("vertex ", v, ": residual arc ", e, " has negative capacity"));
    }
  }
  // arcs[] names each residual pair once, by its forward arc.
  std::vector<char> seen(r, 0);
  for (std::uint64_t i = 0; i < net.arcs.size(); ++i) {
    const EdgeIndex e = net.arcs[i];
    if (e >= r || seen[e] || seen[net.twins[e]])
      return Status::error(str_cat("arc ", i, " names residual arc ", e, " twice or out of range"));
    if (net.capacities[net.twins[e]] != 0)
      return Status::error(str_cat("arc ", i, ": the twin of its forward arc has capacity ",
                                   net.capacities[net.twins[e]]));
    seen[e] = seen[net.twins[e]] = 1;
  }
  return Status();
}

namespace {

void append_u64(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;
  out.append(buf, static_cast<std::size_t>(ptr - buf));
}

// Emits the DIMACS text of `net` in pieces of about 1 MiB to `sink`, so that
// a network of 10^8 arcs never needs its 2 GB of text in memory at once.
template <typename Sink>
void emit_max_flow(const FlowNetwork& net, std::string_view comment, Sink&& sink) {
  std::string out;
  while (!comment.empty()) {
    const std::size_t nl = comment.find('\n');
    const std::string_view line = comment.substr(0, nl);
    out += line.empty() ? "c\n" : "c " + std::string(line) + "\n";
    comment = nl == std::string_view::npos ? std::string_view() : comment.substr(nl + 1);
  }
  out += "p max ";
  append_u64(out, net.num_vertices());
  out += ' ';
  append_u64(out, net.num_arcs());
  out += "\nn ";
  append_u64(out, std::uint64_t{net.source} + 1);
  out += " s\nn ";
  append_u64(out, std::uint64_t{net.sink} + 1);
  out += " t\n";
  for (std::uint64_t i = 0; i < net.num_arcs(); ++i) {
    out += "a ";
    append_u64(out, std::uint64_t{net.arc_tail(i)} + 1);
    out += ' ';
    append_u64(out, std::uint64_t{net.arc_head(i)} + 1);
    out += ' ';
    append_u64(out, static_cast<std::uint64_t>(net.arc_capacity(i)));
    out += '\n';
    if (out.size() >= (1u << 20)) {
      sink(std::string_view(out));
      out.clear();
    }
  }
  sink(std::string_view(out));
}

} // namespace

Expected<std::string> max_flow_text(const FlowNetwork& network, std::string_view comment) {
  if (Status s = validate(network); !s.ok())
    return Status::error("invalid flow network: " + s.message());
  std::string text;
  emit_max_flow(network, comment, [&](std::string_view piece) { text.append(piece); });
  return text;
}

Status write_max_flow(const FlowNetwork& network, const std::string& path,
                      std::string_view comment) {
  if (Status s = validate(network); !s.ok())
    return file_error(path, "invalid flow network: " + s.message());
  OutputFile out;
  if (Status s = out.open(path); !s.ok())
    return s;
  emit_max_flow(network, comment, [&](std::string_view piece) { out.write(piece); });
  return out.commit();
}

} // namespace dd::graph
