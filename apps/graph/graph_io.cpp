#include "graph/graph_io.h"

#include "graph/file.h"
#include "graph/reader_util.h"

namespace dd::graph {

Expected<Csr> parse_graph(std::string_view data, std::string_view name,
                          const ReadOptions& options, Format* format_used) {
  Format format = options.format;
  if (format == Format::kAuto) {
    Expected<Format> detected = detect_format(data, name);
    if (!detected.ok())
      return detected.status();
    format = *detected;
  }
  if (format_used)
    *format_used = format;
  switch (format) {
  case Format::kGaloisGr: return detail::read_galois_gr(data, name, options);
  case Format::kDimacs: return detail::read_dimacs(data, name, options);
  case Format::kMatrixMarket: return detail::read_matrix_market(data, name, options);
  case Format::kSnap:
  case Format::kEdgeList: return detail::read_edge_list(data, name, options);
  case Format::kAuto: break;
  }
  return file_error(name, "no reader for this format");
}

Expected<Csr> read_graph(const std::string& path, const ReadOptions& options,
                         Format* format_used) {
  Expected<std::string> data = read_file(path, options.max_stream_bytes);
  if (!data.ok())
    return data.status();
  return parse_graph(*data, path, options, format_used);
}

} // namespace dd::graph
