#include "graph/weights.h"

#include <algorithm>

#include "graph/random.h"

namespace dd::graph {

Status assign_uniform_weights(Csr& g, const WeightOptions& options) {
  if (options.min_weight < 0 || options.max_weight < options.min_weight)
    return Status::error(str_cat("bad weight range [", options.min_weight, ", ",
                                 options.max_weight, "]: need 0 <= min <= max"));
  const std::uint64_t range =
      static_cast<std::uint64_t>(options.max_weight) - options.min_weight + 1;
  const std::uint64_t n = g.num_vertices();
  std::vector<std::int32_t> weights(g.num_edges());
  for (std::uint64_t u = 0; u < n; ++u) {
    for (EdgeIndex e = g.row_offsets[u]; e < g.row_offsets[u + 1]; ++e) {
      std::uint64_t key = e;
      if (options.symmetric) {
        const std::uint64_t v = g.col_indices[e];
        key = (std::min<std::uint64_t>(u, v) << 32) | std::max<std::uint64_t>(u, v);
      }
      // Modulo bias is below range / 2^64, far under anything measurable.
      weights[e] = options.min_weight +
                   static_cast<std::int32_t>(hash64(options.seed, key) % range);
    }
  }
  g.clear_weights();
  g.weight_type = WeightType::kInt32;
  g.int_weights = std::move(weights);
  return Status();
}

void assign_unit_weights(Csr& g) {
  g.clear_weights();
  g.weight_type = WeightType::kInt32;
  g.int_weights.assign(g.num_edges(), 1);
}

} // namespace dd::graph
