// Jonathan Shewchuk's Triangle file formats: .node (points) and .ele
// (triangles), as Triangle, Show Me and LonestarGPU's DMR read and write
// them (https://www.cs.cmu.edu/~quake/triangle.node.html, .ele.html).
//
// Readers accept what Triangle writes: '#' comments, blank lines, attributes
// and boundary markers (read and dropped), 0- or 1-based numbering (the
// first index decides), 3-node triangles (6-node ones are refused). Errors
// name the file and the line ("mesh.ele:12: ...") and nothing is returned
// on error. Writers produce 0-based files with "%.17g" coordinates, so a
// mesh written and read back is the same mesh bit for bit.
#ifndef DD_DMR_TRIANGLE_IO_H
#define DD_DMR_TRIANGLE_IO_H

#include <string>
#include <string_view>

#include "dmr/mesh.h"
#include "graph/errors.h"

namespace dd::dmr {

/// Reads BASE.node and BASE.ele (BASE may also be given as BASE.node or
/// BASE.ele), orients every triangle counter-clockwise (Triangle writes them
/// so; clockwise ones are turned, zero-area ones refused) and builds the
/// neighbours. Points no triangle uses are kept (they are part of the
/// input); verification then reports them as not covered.
graph::Expected<Mesh> read_mesh(const std::string &base);

/// read_mesh on texts in memory (what read_mesh does once the files are
/// read; also what a fuzzer feeds): `node_name` and `ele_name` name them in
/// messages.
graph::Expected<Mesh> parse_mesh(std::string_view node, std::string_view node_name,
                                 std::string_view ele, std::string_view ele_name);

/// The .node and .ele texts of m's points and live triangles (numbered
/// consecutively: free slots are skipped, but call compact() first so that
/// the neighbours' numbers are the triangles'). A non-empty `comment`
/// becomes '#' lines at the top, one per line of it.
std::string node_text(const Mesh &m, std::string_view comment = {});
std::string ele_text(const Mesh &m, std::string_view comment = {});

/// Writes BASE.node and BASE.ele (`base` may end in .node or .ele), each by
/// graph/file.h's write_file rules (whole or not at all), and both or
/// neither as far as can be: both are opened (their temporary files made)
/// before either is committed, so an output that cannot be opened leaves
/// both files as they were; if .ele then fails to commit, a .node that did
/// not exist before is removed again (one that did is already replaced).
graph::Status write_mesh(const std::string &base, const Mesh &m, std::string_view comment = {});

/// BASE without a trailing ".node" or ".ele".
std::string mesh_base(const std::string &path);

} // namespace dd::dmr

#endif // DD_DMR_TRIANGLE_IO_H
