// SNAP and plain edge lists: one edge "u v" or "u v w" per line, separated
// by spaces or tabs; lines starting with '#' (SNAP) or '%' (KONECT) are
// comments, blank lines are skipped. Every data line has the same number of
// columns. There is no header: the vertex count is the largest id + 1 (after
// removing ReadOptions::index_base).
#include "graph/reader_util.h"

namespace dd::graph::detail {

Expected<Csr> read_edge_list(std::string_view data, std::string_view name,
                             const ReadOptions& options) {
  if (options.index_base > 1)
    return file_error(name, str_cat("index base ", options.index_base, " is not 0 or 1"));
  const std::uint64_t limit =
      options.max_vertices < kMaxVertices ? options.max_vertices : kMaxVertices;

  LineReader lines(data);
  std::string_view line;
  std::size_t columns = 0;  // of the first data line
  std::uint64_t columns_line = 0;
  std::uint64_t n = 0;
  std::uint64_t n_line = 0;  // where the largest id is
  EdgeList edges;
  edges.reserve(safe_reserve(data.size() / 16, data.size(), 4));  // a guess, not a bound
  WeightColumn weights(WeightColumn::Kind::kAuto);

  while (lines.next(line)) {
    const std::uint64_t at = lines.number();
    const std::string_view text = trim_left(line);
    if (text.empty() || text[0] == '#' || text[0] == '%')
      continue;
    Tokens tokens(text);
    std::string_view fields[3];
    std::size_t found = 0;
    for (std::string_view field; found < 3 && tokens.next(field);)
      fields[found++] = field;
    if (found < 2)
      return line_error(name, at, str_cat("expected an edge 'u v' or 'u v w', found ",
                                          quote(text)));
    if (!tokens.done())
      return line_error(name, at, "more than three columns; expected 'u v' or 'u v w'");
    if (columns == 0) {
      columns = found;
      columns_line = at;
    } else if (found != columns) {
      return line_error(name, at, str_cat(found, " columns, but line ", columns_line, " has ",
                                          columns, " (all edges need the same columns)"));
    }
    VertexId u = 0, v = 0;
    if (auto problem = parse_vertex(fields[0], options.index_base, limit, Limit::kCap,
                                    "source", u))
      return line_error(name, at, *problem);
    if (auto problem = parse_vertex(fields[1], options.index_base, limit, Limit::kCap,
                                    "destination", v))
      return line_error(name, at, *problem);
    if (found == 3)
      if (auto problem = weights.add(fields[2]))
        return line_error(name, at, *problem);
    edges.add(u, v);
    const std::uint64_t top = (u > v ? u : v) + std::uint64_t{1};
    if (top > n) {
      n = top;
      n_line = at;
    }
  }

  if (std::optional<std::string> problem = vertex_count_problem(n, options))
    return file_error(name, *problem);
  // Checked before build_csr() allocates n + 1 row offsets.
  if (std::optional<std::string> problem =
          sparse_vertex_problem(n, edges.size(), "edges", "edge"))
    return line_error(name, n_line, str_cat("the largest id makes ", *problem));
  if (columns == 3)
    weights.move_into(edges);
  Expected<Csr> g = build_csr(edges, n, options.symmetrize);
  if (!g.ok())
    return file_error(name, g.status().message());
  return g;
}

} // namespace dd::graph::detail
