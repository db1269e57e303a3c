// Internal to the readers (not installed, not for users): line and token
// scanning over an in-memory file, strict number parsing, the weight column
// and size limits. Everything reports problems as message strings without a
// location; the reader adds "FILE:LINE: " (or the offset) in front.
#ifndef DD_GRAPH_READER_UTIL_H
#define DD_GRAPH_READER_UTIL_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "graph/edge_list.h"
#include "graph/graph_io.h"

namespace dd::graph::detail {

/// Splits a buffer into lines ("\n" or "\r\n" terminated; a last line without
/// a terminator counts) and numbers them from 1. A UTF-8 byte order mark at
/// the start (some Windows tools write one) is skipped.
class LineReader {
public:
  explicit LineReader(std::string_view data)
      : data_(data), pos_(data.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0) {}

  /// The next line without its terminator; false at the end of the data.
  bool next(std::string_view& line);
  /// The 1-based number of the line last returned by next().
  std::uint64_t number() const { return number_; }

private:
  std::string_view data_;
  std::size_t pos_;
  std::uint64_t number_ = 0;
};

/// Appends `value` to `out` little-endian (the binary writers: .gr, .egr).
template <typename T> void append_le(std::string& out, T value) {
  static_assert(std::is_unsigned_v<T>, "store unsigned words");
  char bytes[sizeof value];
  for (std::size_t i = 0; i < sizeof value; ++i)
    bytes[i] = static_cast<char>((value >> (8 * i)) & 0xff);
  out.append(bytes, sizeof value);
}

/// Whitespace-separated tokens (space, tab, \v, \f, \r) of one line.
class Tokens {
public:
  explicit Tokens(std::string_view line) : rest_(line) {}
  /// The next token; false when none is left.
  bool next(std::string_view& token);
  /// True when only whitespace is left.
  bool done();

private:
  std::string_view rest_;
};

/// True when `line` has nothing but whitespace.
bool is_blank(std::string_view line);
/// `line` without leading whitespace.
std::string_view trim_left(std::string_view line);
/// ASCII case-insensitive equality (file extensions, Matrix Market banners).
bool iequals(std::string_view a, std::string_view b);

/// A token for an error message: quoted, at most 40 characters, with bytes
/// that are not printable ASCII written as \xNN (files may hold garbage).
std::string quote(std::string_view token);

/// A decimal unsigned integer filling the whole token (no sign), or nothing.
std::optional<std::uint64_t> parse_u64(std::string_view token);

/// Whether a vertex-id limit comes from the file's header or from a cap.
enum class Limit { kDeclared, kCap };

/// Parses a vertex id: decimal, at least `base`, and (after subtracting
/// `base`) below `limit`. On success stores the 0-based id; else returns the
/// message. `what` names the id in messages ("source", "row", ...).
std::optional<std::string> parse_vertex(std::string_view token, std::uint64_t base,
                                        std::uint64_t limit, Limit kind, const char* what,
                                        VertexId& id);

/// A column of edge weights as a reader collects them.
class WeightColumn {
public:
  enum class Kind {
    kAuto,     ///< int32 while every weight is an integer, float from the first that is not
    kInteger,  ///< only integers (DIMACS, MM "integer")
    kReal,     ///< float, written in any decimal form (MM "real")
  };

  explicit WeightColumn(Kind kind) : kind_(kind), is_float_(kind == Kind::kReal) {}

  /// Appends the weight in `token`, or returns why it is not acceptable:
  /// not a number, negative, NaN/infinite, or outside int32 / float.
  std::optional<std::string> add(std::string_view token);
  /// Moves the weights into `edges` (with the matching weight type).
  void move_into(EdgeList& edges);

private:
  Kind kind_;
  bool is_float_;
  std::vector<std::int32_t> ints_;
  std::vector<float> floats_;
};

/// Why `num_vertices` cannot be built (over 32-bit ids, over
/// options.max_vertices, or -- when `check_memory` -- row offsets larger than
/// memory), or nothing when it can.
std::optional<std::string> vertex_count_problem(std::uint64_t num_vertices,
                                                const ReadOptions& options,
                                                bool check_memory = true);

/// Why a text graph with `num_edges` edges cannot have `num_vertices`
/// vertices (more than kFreeVertices + kVerticesPerEdge per edge, see
/// graph_io.h), or nothing when it can. `edges` and `edge` name them in the
/// file's terms ("arcs", "arc").
std::optional<std::string> sparse_vertex_problem(std::uint64_t num_vertices,
                                                 std::uint64_t num_edges, const char* edges,
                                                 const char* edge);

/// Why a header's count of `declared` items (`what`: "entries", "arcs")
/// cannot be true of `data_bytes` of input when each item takes at least
/// `min_bytes_per_item` bytes including its newline, or nothing.
std::optional<std::string> declared_count_problem(std::uint64_t declared,
                                                  std::uint64_t data_bytes,
                                                  std::uint64_t min_bytes_per_item,
                                                  const char* what);

/// The counts of a DIMACS problem line `p TYPE N M`, as every DIMACS reader
/// checks them: N and M non-negative integers, no more arcs than
/// `data_bytes` can hold (an arc line takes at least 8 bytes), at most
/// `max_arcs` when given (`holder`: what cannot have more, for the message),
/// and N within the vertex limits. Fills `n` and `m`, or returns the first
/// problem.
std::optional<std::string> dimacs_problem_counts(std::string_view n_text,
                                                 std::string_view m_text,
                                                 std::uint64_t data_bytes,
                                                 const ReadOptions& options,
                                                 std::optional<std::uint64_t> max_arcs,
                                                 const char* holder, std::uint64_t& n,
                                                 std::uint64_t& m);

/// The banner of a Matrix Market file, its first line, split into its five
/// words (`%%MatrixMarket matrix <format> <field> <symmetry>`), as the
/// Matrix Market readers (graphs, rating sets) check it: an empty file, a
/// missing or malformed banner and an object other than `matrix` are errors
/// at line 1 of `name` that quote `expected`, the banner the reader wants.
Status matrix_market_banner(LineReader& lines, std::string_view name, const char* expected,
                            std::string_view (&words)[5]);

/// The size line of a Matrix Market file, the first line after the banner
/// that is neither blank nor a comment: three non-negative integers, named
/// `label` in the messages ("ROWS COLUMNS ENTRIES"). Fills `sizes` and
/// `size_line` (its line number), or returns the error: a malformed line, or
/// the end of the file before one.
Status matrix_market_size_line(LineReader& lines, std::string_view name, const char* label,
                               std::uint64_t (&sizes)[3], std::uint64_t& size_line);

/// How many items to reserve for a count declared in a header, bounded by
/// what `data_bytes` of input can hold at `min_bytes_per_item` each, so a
/// lying header cannot make us allocate.
std::uint64_t safe_reserve(std::uint64_t declared, std::uint64_t data_bytes,
                           std::uint64_t min_bytes_per_item);

// The readers (one per format), called by parse_graph() once the format is
// known. They return a validated Csr or the error.
Expected<Csr> read_galois_gr(std::string_view data, std::string_view name,
                             const ReadOptions& options);
Expected<Csr> read_dimacs(std::string_view data, std::string_view name,
                          const ReadOptions& options);
Expected<Csr> read_matrix_market(std::string_view data, std::string_view name,
                                 const ReadOptions& options);
/// SNAP and plain edge lists ("#" and "%" comment lines).
Expected<Csr> read_edge_list(std::string_view data, std::string_view name,
                             const ReadOptions& options);

} // namespace dd::graph::detail

#endif // DD_GRAPH_READER_UTIL_H
