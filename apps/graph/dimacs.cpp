// DIMACS shortest-path challenge format (9th DIMACS Implementation
// Challenge, the .gr text files of USA-road-d.*):
//   c <comment>
//   p sp <N> <M>          once, before any arc
//   a <u> <v> <w>         1-based ids, non-negative integer weight
// The arc count must equal M; every line must be one of the three kinds.
// dimacs_text/write_dimacs write a Csr with int32 weights back in it.
#include <cstdio>

#include "graph/file.h"
#include "graph/graph_io.h"
#include "graph/reader_util.h"

namespace dd::graph::detail {

Expected<Csr> read_dimacs(std::string_view data, std::string_view name,
                          const ReadOptions& options) {
  LineReader lines(data);
  std::string_view line;
  bool have_problem = false;
  std::uint64_t problem_line = 0;
  std::uint64_t n = 0;
  std::uint64_t m = 0;
  EdgeList edges;
  WeightColumn weights(WeightColumn::Kind::kInteger);

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
        return line_error(name, at, "expected the problem line 'p sp N M'");
      if (type == "max")
        return line_error(name, at, "this is a max-flow network ('p max'), not a graph "
                                    "('p sp'); read it with dd-graph maxflow-ref "
                                    "(dd::graph::read_max_flow)");
      if (type != "sp")
        return line_error(name, at, str_cat("problem type ", quote(type),
                                            " is not 'sp' (shortest paths)"));
      if (std::optional<std::string> problem =
              dimacs_problem_counts(n_text, m_text, data.size(), options, std::nullopt, "", n, m))
        return line_error(name, at, *problem);
      have_problem = true;
      problem_line = at;
      edges.reserve(safe_reserve(m, data.size(), 8));
      continue;
    }

    if (kind == "a") {
      if (!have_problem)
        return line_error(name, at, "arc before the problem line 'p sp N M'");
      std::string_view u_text, v_text, w_text;
      if (!tokens.next(u_text) || !tokens.next(v_text) || !tokens.next(w_text) || !tokens.done())
        return line_error(name, at, "expected an arc 'a U V W'");
      VertexId u = 0, v = 0;
      if (auto problem = parse_vertex(u_text, 1, n, Limit::kDeclared, "source", u))
        return line_error(name, at, *problem);
      if (auto problem = parse_vertex(v_text, 1, n, Limit::kDeclared, "destination", v))
        return line_error(name, at, *problem);
      if (auto problem = weights.add(w_text))
        return line_error(name, at, *problem);
      if (edges.size() == m)
        return line_error(name, at, str_cat("more arcs than the ", m, " declared on line ",
                                            problem_line));
      edges.add(u, v);
      continue;
    }

    return line_error(name, at, str_cat("unexpected line starting with ", quote(kind),
                                        " (DIMACS lines start with c, p or a)"));
  }

  if (!have_problem)
    return line_error(name, lines.number() > 0 ? lines.number() : 1,
                      "end of file without a problem line 'p sp N M'");
  if (edges.size() != m)
    return line_error(name, problem_line, str_cat("the problem line declares ", m,
                                                  " arcs but the file has ", edges.size()));
  weights.move_into(edges);
  Expected<Csr> g = build_csr(edges, n, options.symmetrize);
  if (!g.ok())
    return file_error(name, g.status().message());
  return g;
}

} // namespace dd::graph::detail

namespace dd::graph {

Expected<std::string> dimacs_text(const Csr& g) {
  if (Status s = validate(g); !s.ok())
    return Status::error(str_cat("refusing to write an invalid graph: ", s.message()));
  if (g.weight_type != WeightType::kInt32)
    return Status::error(g.weight_type == WeightType::kFloat32
                             ? "the DIMACS format has integer weights only; this graph's are floats"
                             : "the DIMACS format needs a weight on every arc; this graph has none "
                               "(add them with --weights=random)");
  std::string text = str_cat("c written by dd-graph: every arc, 1-based, in CSR order\n", "p sp ",
                             g.num_vertices(), ' ', g.num_edges(), '\n');
  text.reserve(text.size() + g.num_edges() * 24);
  char line[96];
  for (std::uint64_t u = 0; u < g.num_vertices(); ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const int n = std::snprintf(line, sizeof line, "a %llu %llu %d\n", (unsigned long long)(u + 1),
                                  (unsigned long long)(g.col_indices[e]) + 1, int(g.int_weights[e]));
      text.append(line, std::size_t(n));
    }
  return text;
}

Status write_dimacs(const Csr& g, const std::string& path) {
  Expected<std::string> text = dimacs_text(g);
  if (!text.ok())
    return file_error(path, text.status().message());
  return write_file(path, *text);
}

} // namespace dd::graph
