#include "graph/csr.h"

#include <cmath>
#include <cstring>

namespace dd::graph {

const char* weight_type_name(WeightType type) {
  switch (type) {
  case WeightType::kNone: return "none";
  case WeightType::kInt32: return "int32";
  case WeightType::kFloat32: return "float";
  }
  return "unknown";
}

Status validate(const Csr& g) {
  if (g.row_offsets.empty())
    return Status::error("row_offsets is empty (it needs num_vertices + 1 entries)");
  const std::uint64_t n = g.num_vertices();
  const std::uint64_t m = g.num_edges();
  if (n > kMaxVertices)
    return Status::error(str_cat(n, " vertices, more than the ", kMaxVertices, " a 32-bit id allows"));
  if (g.row_offsets[0] != 0)
    return Status::error(str_cat("row_offsets[0] is ", g.row_offsets[0], ", not 0"));
  for (std::uint64_t v = 0; v < n; ++v) {
    if (g.row_offsets[v + 1] < g.row_offsets[v])
      return Status::error(str_cat("vertex ", v, ": row_offsets decrease (", g.row_offsets[v],
                                   " then ", g.row_offsets[v + 1], ")"));
  }
  if (g.row_offsets[n] != m)
    return Status::error(str_cat("row_offsets end at ", g.row_offsets[n], " but there are ", m,
                                 " edges"));
  for (std::uint64_t e = 0; e < m; ++e) {
    if (g.col_indices[e] >= n)
      return Status::error(str_cat("edge ", e, ": destination ", g.col_indices[e],
                                   " out of range (", n, " vertices)"));
  }
  const std::size_t int_expected = g.weight_type == WeightType::kInt32 ? m : 0;
  const std::size_t float_expected = g.weight_type == WeightType::kFloat32 ? m : 0;
  if (g.int_weights.size() != int_expected || g.float_weights.size() != float_expected)
    return Status::error(str_cat("weight type ", weight_type_name(g.weight_type), " with ",
                                 g.int_weights.size(), " int and ", g.float_weights.size(),
                                 " float weights for ", m, " edges"));
  for (std::uint64_t e = 0; e < int_expected; ++e) {
    if (g.int_weights[e] < 0)
      return Status::error(str_cat("edge ", e, ": negative weight ", g.int_weights[e]));
  }
  for (std::uint64_t e = 0; e < float_expected; ++e) {
    const float w = g.float_weights[e];
    if (!std::isfinite(w) || w < 0)
      return Status::error(str_cat("edge ", e, ": weight ", std::to_string(w),
                                   " is negative or not finite"));
  }
  return Status();
}

bool operator==(const Csr& a, const Csr& b) {
  if (a.weight_type != b.weight_type || a.row_offsets != b.row_offsets ||
      a.col_indices != b.col_indices || a.int_weights != b.int_weights ||
      a.float_weights.size() != b.float_weights.size())
    return false;
  // Bitwise, so that a round trip through a file is checked exactly.
  return a.float_weights.empty() ||
         std::memcmp(a.float_weights.data(), b.float_weights.data(),
                     a.float_weights.size() * sizeof(float)) == 0;
}

Expected<std::vector<std::uint32_t>> narrow_row_offsets(const Csr& g) {
  if (g.num_edges() > 0xffffffffull)
    return Status::error(str_cat(g.num_edges(), " edges do not fit 32-bit row offsets"));
  return std::vector<std::uint32_t>(g.row_offsets.begin(), g.row_offsets.end());
}

} // namespace dd::graph
