// Graph file formats and how a file's format is recognized.
//
// Detection looks at the content first and at the file name's extension when
// the content has no signature (docs/graphs.md has the full rules):
//   - NUL or control bytes in the first 256 bytes -> Galois binary .gr
//     (gzip, bzip2, xz and zstd magic numbers are reported as compressed)
//   - first non-blank line "%%MatrixMarket..."   -> Matrix Market
//   - first non-blank line starts with "c" or "p" as a word -> DIMACS
//   - first non-blank line starts with "#"        -> SNAP edge list
//   - otherwise the extension, when it names a format: .gr (DIMACS when text,
//     Galois when empty), .mtx/.mm, .snap, .txt/.el/.edges/.edgelist/.wel/.tsv
//   - otherwise a first line of digits or a "%" comment -> plain edge list
// So ".gr", which names both the binary Galois format and DIMACS text, is
// told apart by the bytes, and a ".mtx" file that lost its banner is still
// read (and rejected) as Matrix Market rather than as an edge list.
#ifndef DD_GRAPH_FORMAT_H
#define DD_GRAPH_FORMAT_H

#include <optional>
#include <string_view>

#include "graph/errors.h"

namespace dd::graph {

enum class Format {
  kAuto,          ///< detect (content, then extension)
  kGaloisGr,      ///< Galois/LonestarGPU binary .gr, version 1
  kDimacs,        ///< DIMACS shortest-path challenge text .gr ("p sp N M", "a u v w")
  kMatrixMarket,  ///< Matrix Market coordinate (pattern/integer/real, general/symmetric)
  kSnap,          ///< SNAP edge list ("#" comments, "u v" per line)
  kEdgeList,      ///< plain edge list ("u v" or "u v w" per line)
};

/// The short name used by --format= and printed by `dd-graph info`:
/// "auto", "gr", "dimacs", "mtx", "snap", "edgelist".
const char* format_name(Format format);

/// A one-line description, e.g. "Galois binary .gr (version 1)".
const char* format_description(Format format);

/// The format named `name` (a format_name() or an alias: galois, mm,
/// matrixmarket, el, edges, txt), or nothing.
std::optional<Format> parse_format(std::string_view name);

/// The format of `data` read from a file called `name` (only its extension
/// is used). An error names the file when neither content nor extension
/// decides, or when the data is compressed.
Expected<Format> detect_format(std::string_view data, std::string_view name);

} // namespace dd::graph

#endif // DD_GRAPH_FORMAT_H
