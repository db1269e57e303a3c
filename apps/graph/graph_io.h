// Reading graph files into a Csr and writing Galois binary .gr and Matrix
// Market files.
//
//   dd::graph::ReadOptions options;             // format detected by default
//   auto graph = dd::graph::read_graph("road.gr", options);
//   if (!graph.ok()) { std::fprintf(stderr, "%s\n", graph.status().message().c_str()); ... }
//   use(graph->row_offsets, graph->col_indices);
//
// Formats, their id conventions and every error message are described in
// docs/graphs.md. In short:
//   - Vertex ids become 0-based: DIMACS and Matrix Market are 1-based by
//     definition; edge lists and SNAP use ReadOptions::index_base (default 0).
//   - The vertex count is the header's N (DIMACS "p sp N M", Matrix Market
//     size line, .gr header) or, for edge lists and SNAP, the largest id + 1
//     (SNAP's "# Nodes:" comment counts distinct ids, not the id range, so it
//     is ignored).
//   - Sizes are checked against what the file can hold before anything is
//     allocated: declared edge counts against the file's bytes, vertex
//     counts against kFreeVertices + kVerticesPerEdge per edge (below).
//   - Self loops and duplicate edges are kept, in file order.
//   - Undirected inputs (Matrix Market "symmetric") get both directions; a
//     diagonal entry gives one self loop. ReadOptions::symmetrize does the
//     same for any input.
//   - Weights come from the file: DIMACS and MM "integer" give int32, MM "real"
//     gives float, edge lists give int32 unless a weight has a fraction or an
//     exponent (then float), .gr edge data of 4 bytes is int32 or float as
//     ReadOptions::gr_weight_type says. Negative, NaN or infinite weights and
//     integers beyond int32 are errors.
#ifndef DD_GRAPH_GRAPH_IO_H
#define DD_GRAPH_GRAPH_IO_H

#include <cstdint>
#include <string>
#include <string_view>

#include "graph/csr.h"
#include "graph/errors.h"
#include "graph/file.h"
#include "graph/format.h"

namespace dd::graph {

struct ReadOptions {
  /// kAuto detects it (format.h).
  Format format = Format::kAuto;
  /// The id of the first vertex in edge lists and SNAP files: 0 or 1. (DIMACS
  /// and Matrix Market are always 1-based; .gr is always 0-based.)
  std::uint32_t index_base = 0;
  /// Add (v, u) for every edge (u, v) with u != v, for undirected edge lists.
  bool symmetrize = false;
  /// How 4-byte .gr edge data is read: kInt32 (as Galois and LonestarGPU
  /// write SSSP weights) or kFloat32. The file does not record which.
  WeightType gr_weight_type = WeightType::kInt32;
  /// Inputs declaring or using more vertices are rejected with an error. Lower
  /// it to bound memory on untrusted input (the fuzzers use 2^16).
  std::uint64_t max_vertices = kMaxVertices;
  /// A stream (a pipe, a FIFO, a device: anything but a regular file) longer
  /// than this is an error instead of being read until memory runs out
  /// (`dd-graph info /dev/zero`). Regular files are bounded by their size.
  std::uint64_t max_stream_bytes = kDefaultMaxStreamBytes;
};

/// Text formats give the vertex count in a header (DIMACS, Matrix Market) or
/// imply it (edge lists: the largest id + 1), and each vertex costs 8 bytes
/// of row offsets whether or not it has edges. So that a 12-byte file
/// "0 999999999" cannot make a reader allocate gigabytes, a text graph may
/// have at most kFreeVertices + kVerticesPerEdge * (its number of edges)
/// vertices; more is an error. (Galois .gr stores 8 bytes per vertex, so its
/// size bounds its vertex count.)
inline constexpr std::uint64_t kFreeVertices = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kVerticesPerEdge = 16;

/// Reads the graph in `path`. Errors name the file and the line (text) or
/// byte offset (binary) where the input goes wrong; nothing is partially
/// returned. When `format_used` is given it receives the format that was read.
Expected<Csr> read_graph(const std::string& path, const ReadOptions& options = {},
                         Format* format_used = nullptr);

/// Parses `data` as if read from a file called `name` (used in messages and
/// for extension-based detection). read_graph() is this plus read_file().
Expected<Csr> parse_graph(std::string_view data, std::string_view name,
                          const ReadOptions& options = {}, Format* format_used = nullptr);

/// The Galois binary .gr (version 1) image of `graph`, little-endian:
///   uint64 version = 1, uint64 sizeof(edge data) (0 unweighted, 4 weighted),
///   uint64 num_vertices, uint64 num_edges,
///   uint64 out_index[num_vertices]   (row_offsets[1..]: end of each row),
///   uint32 destination[num_edges], 4 zero bytes when num_edges is odd,
///   edge data[num_edges]             (int32 or float bits).
/// Errors on an invalid graph (validate()).
Expected<std::string> gr_bytes(const Csr& graph);

/// Writes gr_bytes(graph) to `path` as an OutputFile (file.h): a regular file
/// atomically (temporary file + rename), a device or FIFO through.
/// Errors on an invalid graph (validate()) or an I/O failure.
Status write_gr(const Csr& graph, const std::string& path);

/// The graph as Matrix Market text: `coordinate` and `general` (every arc one
/// 1-based line "row col [weight]", in CSR order), `pattern` without
/// weights, `integer` with int32 ones and `real` with float ones (printed
/// with 9 significant digits: they read back to the same float). Reading
/// it back gives the same Csr. Errors on an invalid graph (validate()).
Expected<std::string> mtx_text(const Csr& graph);

/// Writes mtx_text(graph) to `path` as an OutputFile (file.h): a regular
/// file atomically, a device or FIFO through.
Status write_mtx(const Csr& graph, const std::string& path);

/// The graph as DIMACS shortest-path text, as the 9th DIMACS Challenge's
/// USA-road-d.* files: a comment, "p sp N M", then every arc one 1-based
/// line "a u v w" in CSR order. Reading it back gives the same Csr. Errors
/// on an invalid graph and on one without int32 weights (every DIMACS arc
/// has an integer weight).
Expected<std::string> dimacs_text(const Csr& graph);

/// Writes dimacs_text(graph) to `path` as an OutputFile (file.h).
Status write_dimacs(const Csr& graph, const std::string& path);

/// The graph as an ECL binary graph (.egr: Burtscher's ECL and Indigo
/// suites, library/ECLgraph.h), little-endian int32 words:
///   nodes, edges, nindex[nodes + 1] (row offsets), nlist[edges],
///   then eweight[edges] only when the graph has int32 weights.
/// Errors on an invalid graph, one without vertices (ECL's reader refuses
/// it), counts past int32, and float weights.
Expected<std::string> egr_bytes(const Csr& graph);

/// Writes egr_bytes(graph) to `path` as an OutputFile (file.h).
Status write_egr(const Csr& graph, const std::string& path);

} // namespace dd::graph

#endif // DD_GRAPH_GRAPH_IO_H
