// Reading the GRAPH argument of the graph examples with the project's graph
// library (apps/graph): --format, --base and --symmetrize as dd-graph
// takes them. Errors name the file and line or offset and end the program.
#ifndef DD_EXAMPLES_EXAMPLE_GRAPH_H
#define DD_EXAMPLES_EXAMPLE_GRAPH_H

#include <optional>
#include <string>

#include "example_util.h"
#include "graph/graph_io.h"

namespace dd::examples {

/// Reads `--format`, `--base` and (when `allow_symmetrize`) `--symmetrize`
/// from `opts`; call before Options::finish().
inline dd::graph::ReadOptions graph_read_options(Options &opts, bool allow_symmetrize) {
  dd::graph::ReadOptions read;
  std::string format = opts.get("format", "auto");
  std::optional<dd::graph::Format> parsed = dd::graph::parse_format(format);
  if (!parsed)
    opts.fail(("unknown format '" + format + "'").c_str());
  read.format = *parsed;
  read.index_base = std::uint32_t(opts.number("base", 0));
  if (allow_symmetrize)
    read.symmetrize = opts.number("symmetrize", 0) != 0;
  return read;
}

/// The graph in `path`, or the program ends with the reader's message.
inline dd::graph::Csr read_graph_or_exit(const std::string &path,
                                         const dd::graph::ReadOptions &read) {
  dd::graph::Expected<dd::graph::Csr> graph = dd::graph::read_graph(path, read);
  if (!graph.ok()) {
    std::fprintf(stderr, "%s\n", graph.status().message().c_str());
    std::exit(1);
  }
  return std::move(*graph);
}

} // namespace dd::examples

#endif // DD_EXAMPLES_EXAMPLE_GRAPH_H
