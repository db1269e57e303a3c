// The GRAPH argument of the graph commands that read one graph (dd-sssp,
// dd-mst): the one positional path, read with --format, --base,
// --symmetrize and --max-input-bytes, and refused when --out names it (so
// that nothing is written over a file being read). Header-only, like
// command_line.h, for the nvcc-built tools.
#ifndef DD_TOOLS_GRAPH_ARGUMENT_H
#define DD_TOOLS_GRAPH_ARGUMENT_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "graph/csr.h"
#include "graph/file.h"
#include "graph/format.h"
#include "graph/graph_io.h"
#include "command_line.h"

namespace dd::tools {

/// Reads the command's GRAPH into `csr` and its path into `path`; the
/// error message otherwise (`tool` names the command for its --help).
inline std::optional<std::string> read_graph_argument(const Args &args, const char *tool,
                                                      std::uint64_t base,
                                                      std::uint64_t max_input_bytes,
                                                      std::string &path, graph::Csr &csr) {
  if (args.positional.size() != 1)
    return args.positional.empty()
               ? std::string("no GRAPH given (") + tool + " --help)"
               : "expected one GRAPH, got " + std::to_string(args.positional.size());
  path = args.positional[0];

  graph::ReadOptions read;
  if (auto it = args.values.find("format"); it != args.values.end()) {
    const std::optional<graph::Format> format = graph::parse_format(it->second);
    if (!format)
      return "--format=" + it->second + " is not one of auto, gr, dimacs, mtx, snap, edgelist";
    read.format = *format;
  }
  read.index_base = std::uint32_t(base);
  read.symmetrize = args.flags.count("symmetrize") != 0;
  read.max_stream_bytes = max_input_bytes;
  // Checked before reading: nothing is written over a file being read.
  if (auto it = args.values.find("out"); it != args.values.end() && it->second != "-")
    if (graph::Status s = graph::check_output_not_input(it->second, {path}, "--out"); !s.ok())
      return s.message();
  current_file() = path;
  graph::Expected<graph::Csr> graph = graph::read_graph(path, read);
  if (!graph.ok())
    return graph.status().message();
  csr = std::move(*graph);
  return std::nullopt;
}

} // namespace dd::tools

#endif // DD_TOOLS_GRAPH_ARGUMENT_H
