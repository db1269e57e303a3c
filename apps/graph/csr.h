// The compressed sparse row (CSR) graph every reader, generator and reference
// of dd::graph produces or consumes, and the layout GPU kernels copy as is.
//
// Layout (the usual out-edge CSR of LonestarGPU, Gunrock and GAP):
//   row_offsets  num_vertices + 1 entries of EdgeIndex (uint64): the out-edges of
//                vertex v are [row_offsets[v], row_offsets[v + 1]); row_offsets[0]
//                is 0 and the last entry is num_edges.
//   col_indices  num_edges entries of VertexId (uint32): edge destinations.
//   weights      none, or num_edges int32 (int_weights) or float (float_weights),
//                parallel to col_indices. Readers and generators never produce
//                negative, NaN or infinite weights.
//
// Why 64-bit offsets: symmetrized Kronecker and web graphs pass 2^32 edges.
// Kernels that prefer 32-bit offsets (half the offset traffic) narrow them with
// narrow_row_offsets(), which fails cleanly when the graph is too big for that.
// Vertex ids are 32-bit; kInvalidVertex (UINT32_MAX) is never a vertex, so a
// graph has at most kMaxVertices = 2^32 - 1 vertices and kernels may use the
// all-ones id as a sentinel.
#ifndef DD_GRAPH_CSR_H
#define DD_GRAPH_CSR_H

#include <cstdint>
#include <vector>

#include "graph/errors.h"

namespace dd::graph {

using VertexId = std::uint32_t;
using EdgeIndex = std::uint64_t;

inline constexpr VertexId kInvalidVertex = 0xffffffffu;
inline constexpr std::uint64_t kMaxVertices = 0xffffffffull;

/// What the edges of a graph carry.
enum class WeightType : std::uint8_t {
  kNone,    ///< no weights (algorithms that need them use 1)
  kInt32,   ///< Csr::int_weights
  kFloat32, ///< Csr::float_weights
};

/// "none", "int32" or "float".
const char* weight_type_name(WeightType type);

/// An out-edge CSR graph. A plain aggregate: build it with a reader, a
/// generator or build_csr() (edge_list.h), and check hand-made ones with
/// validate().
struct Csr {
  std::vector<EdgeIndex> row_offsets = std::vector<EdgeIndex>(1, 0);
  std::vector<VertexId> col_indices;
  WeightType weight_type = WeightType::kNone;
  std::vector<std::int32_t> int_weights;  ///< num_edges entries iff kInt32
  std::vector<float> float_weights;       ///< num_edges entries iff kFloat32

  std::uint64_t num_vertices() const {
    return row_offsets.empty() ? 0 : row_offsets.size() - 1;
  }
  std::uint64_t num_edges() const { return col_indices.size(); }
  bool has_weights() const { return weight_type != WeightType::kNone; }
  /// Out-degree of v (v < num_vertices()).
  std::uint64_t degree(VertexId v) const { return row_offsets[v + 1] - row_offsets[v]; }

  /// Drops the weights (the structure stays).
  void clear_weights() {
    weight_type = WeightType::kNone;
    int_weights = {};
    float_weights = {};
  }
};

/// Checks the invariants listed in the file comment: offsets start at 0, never
/// decrease and end at num_edges, destinations are in range, the weight array
/// matches weight_type and has num_edges entries, weights are non-negative and
/// finite. The message names the first violation ("vertex 3: ...").
Status validate(const Csr& graph);

/// Exact structural and weight equality (edge order within a row matters).
bool operator==(const Csr& a, const Csr& b);
inline bool operator!=(const Csr& a, const Csr& b) { return !(a == b); }

/// The row offsets as uint32 for kernels that use 32-bit edge indices; an
/// error when the graph has 2^32 edges or more.
Expected<std::vector<std::uint32_t>> narrow_row_offsets(const Csr& graph);

} // namespace dd::graph

#endif // DD_GRAPH_CSR_H
