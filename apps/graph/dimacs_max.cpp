// DIMACS max-flow format (1st DIMACS Implementation Challenge; what the
// Washington and GENRMF generators write):
//   c <comment>
//   p max <N> <M>          once, before any n or a line
//   n <ID> s / n <ID> t    the source and the sink, once each, distinct
//   a <U> <V> <CAP>        1-based ids, 0 <= CAP <= 2^31 - 1
// The arc count must equal M; every line must be one of the four kinds. The
// checks mirror the shortest-path reader (dimacs.cpp), including the size
// limits applied before anything is allocated (docs/graphs.md, "Input limits").
#include "graph/file.h"
#include "graph/flow_network.h"
#include "graph/reader_util.h"

namespace dd::graph {
namespace {

using detail::LineReader;
using detail::Limit;
using detail::Tokens;
using detail::parse_u64;
using detail::parse_vertex;
using detail::quote;

constexpr const char* kProblemLine = "'p max N M'";

// The capacity in `token`, or why it is not one.
std::optional<std::string> parse_capacity(std::string_view token, Capacity& capacity) {
  bool digits = !token.empty();
  for (std::size_t i = 0; i < token.size(); ++i)
    digits = digits && ((token[i] >= '0' && token[i] <= '9') || (i == 0 && token[i] == '-'));
  if (!digits || token == "-")
    return str_cat("capacity ", quote(token), " is not a non-negative integer");
  if (token[0] == '-')
    return str_cat("negative capacity ", quote(token));
  const std::optional<std::uint64_t> value = parse_u64(token);
  if (!value || *value > static_cast<std::uint64_t>(kMaxCapacity))
    return str_cat("capacity ", quote(token), " does not fit in int32 (at most ", kMaxCapacity,
                   ")");
  capacity = static_cast<Capacity>(*value);
  return std::nullopt;
}

} // namespace

Expected<FlowNetwork> parse_max_flow(std::string_view data, std::string_view name,
                                     const ReadOptions& options) {
  LineReader lines(data);
  std::string_view line;
  bool have_problem = false;
  std::uint64_t problem_line = 0;
  std::uint64_t n = 0;
  std::uint64_t m = 0;
  // 0 while not yet designated: lines are numbered from 1.
  std::uint64_t source_line = 0;
  std::uint64_t sink_line = 0;
  VertexId source = 0;
  VertexId sink = 0;
  ArcList arcs;

  while (lines.next(line)) {
    const std::uint64_t at = lines.number();
    Tokens tokens(line);
    std::string_view kind;
    if (!tokens.next(kind) || kind[0] == 'c')
      continue;  // blank or comment ("c" and "c..." alike)

    if (kind == "p") {
      if (have_problem)
        return line_error(name, at, str_cat("a second problem line (the first is line ",
                                            problem_line, ")"));
      std::string_view type, n_text, m_text;
      if (!tokens.next(type) || !tokens.next(n_text) || !tokens.next(m_text) || !tokens.done())
        return line_error(name, at, str_cat("expected the problem line ", kProblemLine));
      if (type != "max")
        return line_error(name, at, str_cat("problem type ", quote(type),
                                            " is not 'max' (maximum flow)"));
      if (std::optional<std::string> problem = detail::dimacs_problem_counts(
              n_text, m_text, data.size(), options, kMaxArcs, "a flow network", n, m))
        return line_error(name, at, *problem);
      have_problem = true;
      problem_line = at;
      arcs.reserve(detail::safe_reserve(m, data.size(), 8));
      continue;
    }

    if (kind == "n") {
      if (!have_problem)
        return line_error(name, at, str_cat("node designation before the problem line ",
                                            kProblemLine));
      std::string_view id_text, which;
      if (!tokens.next(id_text) || !tokens.next(which) || !tokens.done())
        return line_error(name, at, "expected a node designation 'n ID s' or 'n ID t'");
      const bool is_source = which == "s";
      if (!is_source && which != "t")
        return line_error(name, at, str_cat("node designation ", quote(which),
                                            " is not 's' (source) or 't' (sink)"));
      std::uint64_t& seen_at = is_source ? source_line : sink_line;
      if (seen_at != 0)
        return line_error(name, at, str_cat("a second ", is_source ? "source" : "sink",
                                            " (the first is line ", seen_at, ")"));
      VertexId id = 0;
      if (auto problem = parse_vertex(id_text, 1, n, Limit::kDeclared,
                                      is_source ? "source" : "sink", id))
        return line_error(name, at, *problem);
      const std::uint64_t other_line = is_source ? sink_line : source_line;
      if (other_line != 0 && id == (is_source ? sink : source))
        return line_error(name, at, str_cat("vertex ", std::uint64_t{id} + 1,
                                            " cannot be both the source and the sink (line ",
                                            other_line, ")"));
      (is_source ? source : sink) = id;
      seen_at = at;
      continue;
    }

    if (kind == "a") {
      if (!have_problem)
        return line_error(name, at, str_cat("arc before the problem line ", kProblemLine));
      std::string_view u_text, v_text, cap_text;
      if (!tokens.next(u_text) || !tokens.next(v_text) || !tokens.next(cap_text) ||
          !tokens.done())
        return line_error(name, at, "expected an arc 'a U V CAP'");
      VertexId u = 0, v = 0;
      if (auto problem = parse_vertex(u_text, 1, n, Limit::kDeclared, "tail", u))
        return line_error(name, at, *problem);
      if (auto problem = parse_vertex(v_text, 1, n, Limit::kDeclared, "head", v))
        return line_error(name, at, *problem);
      Capacity cap = 0;
      if (auto problem = parse_capacity(cap_text, cap))
        return line_error(name, at, *problem);
      if (arcs.size() == m)
        return line_error(name, at, str_cat("more arcs than the ", m, " declared on line ",
                                            problem_line));
      arcs.add(u, v, cap);
      continue;
    }

    return line_error(name, at, str_cat("unexpected line starting with ", quote(kind),
                                        " (DIMACS max-flow lines start with c, p, n or a)"));
  }

  if (!have_problem)
    return line_error(name, lines.number() > 0 ? lines.number() : 1,
                      str_cat("end of file without a problem line ", kProblemLine));
  if (arcs.size() != m)
    return line_error(name, problem_line, str_cat("the problem line declares ", m,
                                                  " arcs but the file has ", arcs.size()));
  if (source_line == 0)
    return line_error(name, problem_line, "no source: the file has no line 'n ID s'");
  if (sink_line == 0)
    return line_error(name, problem_line, "no sink: the file has no line 'n ID t'");
  Expected<FlowNetwork> net = build_flow_network(arcs, n, source, sink);
  if (!net.ok())
    return file_error(name, net.status().message());
  return net;
}

Expected<FlowNetwork> read_max_flow(const std::string& path, const ReadOptions& options) {
  Expected<std::string> data = read_file(path, options.max_stream_bytes);
  if (!data.ok())
    return data.status();
  return parse_max_flow(*data, path, options);
}

} // namespace dd::graph
