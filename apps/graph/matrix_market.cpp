// Matrix Market coordinate files (NIST; the SuiteSparse collection's .mtx):
//   %%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>
//   % comments
//   <rows> <cols> <entries>
//   <i> <j> [value]        1-based; entry (i, j) is the edge i -> j
// "symmetric" files store one triangle; both directions are produced (a
// diagonal entry once). Dense "array" files, complex values and the
// skew-symmetric / hermitian kinds are not graphs we read: errors.
// mtx_text/write_mtx write a Csr back as a `general` file (every arc).
#include <cstdio>

#include "graph/file.h"
#include "graph/reader_util.h"

namespace dd::graph::detail {

Expected<Csr> read_matrix_market(std::string_view data, std::string_view name,
                                 const ReadOptions& options) {
  constexpr const char* kBanner =
      "'%%MatrixMarket matrix coordinate pattern|integer|real general|symmetric'";
  LineReader lines(data);
  std::string_view line;
  std::string_view words[5];
  if (Status s = matrix_market_banner(lines, name, kBanner, words); !s.ok())
    return s;
  if (iequals(words[2], "array"))
    return line_error(name, 1, "dense 'array' matrices are not read; only 'coordinate'");
  if (!iequals(words[2], "coordinate"))
    return line_error(name, 1, str_cat("format ", quote(words[2]), " is not 'coordinate'"));
  const bool pattern = iequals(words[3], "pattern");
  const bool integer = iequals(words[3], "integer");
  const bool real = iequals(words[3], "real") || iequals(words[3], "double");
  if (!pattern && !integer && !real)
    return line_error(name, 1, str_cat("field ", quote(words[3]),
                                       " is not supported (pattern, integer or real)"));
  const bool symmetric = iequals(words[4], "symmetric");
  if (!symmetric && !iequals(words[4], "general"))
    return line_error(name, 1, str_cat("symmetry ", quote(words[4]),
                                       " is not supported (general or symmetric)"));

  // The size line, after comments and blank lines.
  std::uint64_t sizes[3] = {0, 0, 0};
  std::uint64_t size_line = 0;
  if (Status s = matrix_market_size_line(lines, name, "ROWS COLUMNS ENTRIES", sizes, size_line);
      !s.ok())
    return s;
  const std::uint64_t n = sizes[0], cols = sizes[1], nnz = sizes[2];
  if (n != cols)
    return line_error(name, size_line, str_cat("the matrix is ", n, " x ", cols,
                                               "; an adjacency matrix is square"));
  // "1 1\n" or "1 1 1\n" is the shortest entry.
  if (std::optional<std::string> problem =
          declared_count_problem(nnz, data.size(), pattern ? 4 : 6, "entries"))
    return line_error(name, size_line, *problem);
  if (std::optional<std::string> problem = vertex_count_problem(n, options))
    return line_error(name, size_line, *problem);
  if (std::optional<std::string> problem =
          sparse_vertex_problem(n, nnz, "entries", "entry"))
    return line_error(name, size_line, *problem);

  EdgeList edges;
  edges.reserve(safe_reserve(nnz, data.size(), 4));  // "1 1\n" is the shortest entry
  WeightColumn weights(integer ? WeightColumn::Kind::kInteger : WeightColumn::Kind::kReal);
  const std::size_t columns = pattern ? 2 : 3;
  while (lines.next(line)) {
    const std::uint64_t at = lines.number();
    const std::string_view text = trim_left(line);
    if (text.empty() || text[0] == '%')
      continue;
    Tokens tokens(text);
    std::string_view fields[3];
    std::size_t found = 0;
    for (std::string_view field; found < 3 && tokens.next(field);)
      fields[found++] = field;
    if (found != columns || !tokens.done())
      return line_error(name, at, pattern ? "expected an entry 'ROW COLUMN' (pattern matrix)"
                                          : "expected an entry 'ROW COLUMN VALUE'");
    if (edges.size() == nnz)
      return line_error(name, at, str_cat("more entries than the ", nnz,
                                          " declared on line ", size_line));
    VertexId u = 0, v = 0;
    if (auto problem = parse_vertex(fields[0], 1, n, Limit::kDeclared, "row", u))
      return line_error(name, at, *problem);
    if (auto problem = parse_vertex(fields[1], 1, n, Limit::kDeclared, "column", v))
      return line_error(name, at, *problem);
    if (!pattern)
      if (auto problem = weights.add(fields[2]))
        return line_error(name, at, *problem);
    edges.add(u, v);
  }
  if (edges.size() != nnz)
    return line_error(name, size_line, str_cat("the size line declares ", nnz,
                                               " entries but the file has ", edges.size()));
  if (!pattern)
    weights.move_into(edges);
  Expected<Csr> g = build_csr(edges, n, symmetric || options.symmetrize);
  if (!g.ok())
    return file_error(name, g.status().message());
  return g;
}

} // namespace dd::graph::detail

namespace dd::graph {

Expected<std::string> mtx_text(const Csr& g) {
  if (Status s = validate(g); !s.ok())
    return Status::error(str_cat("refusing to write an invalid graph: ", s.message()));
  const char* field = g.weight_type == WeightType::kInt32     ? "integer"
                      : g.weight_type == WeightType::kFloat32 ? "real"
                                                              : "pattern";
  std::string text = str_cat("%%MatrixMarket matrix coordinate ", field, " general\n",
                             "% written by dd-graph: every arc, 1-based, in CSR order\n",
                             g.num_vertices(), ' ', g.num_vertices(), ' ', g.num_edges(), '\n');
  text.reserve(text.size() + g.num_edges() * 24);
  char line[96];
  for (std::uint64_t u = 0; u < g.num_vertices(); ++u)
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      const unsigned long long row = u + 1, col = std::uint64_t(g.col_indices[e]) + 1;
      int n = 0;
      if (g.weight_type == WeightType::kInt32)
        n = std::snprintf(line, sizeof line, "%llu %llu %d\n", row, col, int(g.int_weights[e]));
      else if (g.weight_type == WeightType::kFloat32) // 9 digits: the same float back
        n = std::snprintf(line, sizeof line, "%llu %llu %.9g\n", row, col,
                          double(g.float_weights[e]));
      else
        n = std::snprintf(line, sizeof line, "%llu %llu\n", row, col);
      text.append(line, std::size_t(n));
    }
  return text;
}

Status write_mtx(const Csr& g, const std::string& path) {
  Expected<std::string> text = mtx_text(g);
  if (!text.ok())
    return file_error(path, text.status().message());
  return write_file(path, *text);
}

} // namespace dd::graph
