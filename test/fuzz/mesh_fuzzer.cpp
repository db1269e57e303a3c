// libFuzzer harness for Triangle's .node/.ele reader (apps/dmr/triangle_io.cpp)
// and, on every small mesh it returns, the checks dd-dmr runs on an input
// and a bounded CPU refinement (apps/dmr/cavity.h, refine_cpu.cpp).
//
// The input is the .node text, a NUL byte, then the .ele text (no NUL: all
// of it is the .node text and the .ele is empty). Besides ASan + UBSan
// findings, each input checks the contract, and a violation traps:
//   - an error message starts with the file name it is about;
//   - a returned mesh is a valid triangulation (check_triangulation) and
//     survives a write/read round trip bit for bit;
//   - on a Delaunay mesh of few triangles, 200 refinement steps leave a
//     valid triangulation that still covers the input's points.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "dmr/mesh.h"
#include "dmr/refine.h"
#include "dmr/triangle_io.h"
#include "dmr/verify.h"

namespace {

using namespace dd::dmr;

[[noreturn]] void contract_violation(const char *what, const std::string &detail) {
  std::fprintf(stderr, "mesh reader / DMR contract violated: %s: %s\n", what, detail.c_str());
  __builtin_trap();
}

bool names_a_file(const std::string &message) {
  return message.rfind("fuzz.node", 0) == 0 || message.rfind("fuzz.ele", 0) == 0;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char *>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view node = input.substr(0, nul);
  const std::string_view ele = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  dd::graph::Expected<Mesh> mesh = parse_mesh(node, "fuzz.node", ele, "fuzz.ele");
  if (!mesh.ok()) {
    if (!names_a_file(mesh.status().message()))
      contract_violation("error without the file name", mesh.status().message());
    return 0;
  }
  if (dd::graph::Status s = check_triangulation(*mesh, "read mesh"); !s.ok())
    contract_violation("invalid mesh returned", s.message());
  dd::graph::Expected<Mesh> back =
      parse_mesh(node_text(*mesh), "back.node", ele_text(*mesh), "back.ele");
  if (!back.ok())
    contract_violation("cannot read a written mesh back", back.status().message());
  if (back->x != mesh->x || back->y != mesh->y || back->v != mesh->v || back->n != mesh->n)
    contract_violation("round trip changed the mesh", "");
  if (mesh->num_triangles() > 64 || !check_delaunay(*mesh, "fuzz.ele").ok())
    return 0;
  Mesh refined = *mesh;
  RefineOptions options;
  options.cos2_min = cos2_of_degrees(25);
  options.max_rounds = 200;
  refine_cpu(refined, options);
  compact(refined, mesh->num_points());
  if (dd::graph::Status s = check_triangulation(refined, "refined mesh"); !s.ok())
    contract_violation("refinement broke the mesh", s.message());
  return 0;
}
