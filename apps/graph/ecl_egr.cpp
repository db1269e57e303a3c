// The ECL binary graph (.egr) of Burtscher's ECL and Indigo suites, written
// so that their programs (ECL-CC, ECL-MST, Indigo's BFS/SSSP/CC/MIS/MST
// codes) run on the graphs dd-graph reads and generates, beside ours.
#include <limits>

#include "graph/file.h"
#include "graph/graph_io.h"
#include "graph/reader_util.h"

namespace dd::graph {

Expected<std::string> egr_bytes(const Csr& g) {
  if (Status s = validate(g); !s.ok())
    return Status::error(str_cat("refusing to write an invalid graph: ", s.message()));
  // ECLgraph holds both counts and every index in an int; its reader
  // refuses a graph without vertices.
  constexpr std::uint64_t kMax = std::numeric_limits<std::int32_t>::max();
  if (g.num_vertices() == 0)
    return Status::error("the ECL format needs at least one vertex (its reader refuses 0)");
  if (g.num_vertices() >= kMax || g.num_edges() > kMax)
    return Status::error(str_cat("the ECL format counts in int32: ", g.num_vertices(),
                                 " vertices and ", g.num_edges(), " edges do not fit"));
  if (g.weight_type == WeightType::kFloat32)
    return Status::error("the ECL format has integer weights only; this graph's are floats");
  using detail::append_le;
  const std::uint64_t n = g.num_vertices(), m = g.num_edges();
  std::string out;
  out.reserve(4 * (2 + n + 1 + m + (g.has_weights() ? m : 0)));
  append_le<std::uint32_t>(out, static_cast<std::uint32_t>(n));
  append_le<std::uint32_t>(out, static_cast<std::uint32_t>(m));
  for (std::uint64_t v = 0; v <= n; ++v)
    append_le<std::uint32_t>(out, static_cast<std::uint32_t>(g.row_offsets[v]));
  for (std::uint64_t e = 0; e < m; ++e)
    append_le<std::uint32_t>(out, g.col_indices[e]);
  // No weights: the file ends here, which ECL's reader takes as unweighted.
  if (g.weight_type == WeightType::kInt32)
    for (std::uint64_t e = 0; e < m; ++e)
      append_le<std::uint32_t>(out, static_cast<std::uint32_t>(g.int_weights[e]));
  return out;
}

Status write_egr(const Csr& g, const std::string& path) {
  Expected<std::string> bytes = egr_bytes(g);
  if (!bytes.ok())
    return file_error(path, bytes.status().message());
  return write_file(path, *bytes);
}

} // namespace dd::graph
