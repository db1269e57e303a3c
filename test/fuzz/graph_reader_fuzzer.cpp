// libFuzzer harness for the graph readers (apps/graph). Built once per
// reader with DD_FUZZ_FORMAT naming the dd::graph::Format it forces (kAuto
// fuzzes format detection and every reader behind it).
//
// Besides "no crash, no leak, no undefined behaviour" (ASan + UBSan), every
// input checks the library's contract, and a violation traps:
//   - a graph that is returned is valid (validate()) and survives a .gr
//     round trip unchanged;
//   - an error message starts with the file name and a location.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "graph/csr.h"
#include "graph/graph_io.h"

#ifndef DD_FUZZ_FORMAT
#error "define DD_FUZZ_FORMAT to a dd::graph::Format enumerator, e.g. kDimacs"
#endif

namespace {

using namespace dd::graph;

constexpr Format kFormat = Format::DD_FUZZ_FORMAT;
constexpr std::string_view kName = "fuzz-input";

[[noreturn]] void contract_violation(const char* what, const std::string& detail) {
  std::fprintf(stderr, "graph reader contract violated: %s: %s\n", what, detail.c_str());
  __builtin_trap();
}

void check(std::string_view data, ReadOptions options) {
  options.format = kFormat;
  options.max_vertices = 1 << 16;  // bound memory: the fuzzer's RSS limit is 2 GB
  Expected<Csr> g = parse_graph(data, kName, options);
  if (!g.ok()) {
    const std::string& message = g.status().message();
    if (message.compare(0, kName.size(), kName) != 0 || message.size() <= kName.size() + 2 ||
        message[kName.size()] != ':')
      contract_violation("error without the file name", message);
    return;
  }
  if (Status s = validate(*g); !s.ok())
    contract_violation("invalid graph returned", s.message());
  Expected<std::string> bytes = gr_bytes(*g);
  if (!bytes.ok())
    contract_violation("cannot encode a returned graph", bytes.status().message());
  ReadOptions gr;
  gr.format = Format::kGaloisGr;
  gr.gr_weight_type = g->weight_type == WeightType::kFloat32 ? WeightType::kFloat32
                                                            : WeightType::kInt32;
  Expected<Csr> back = parse_graph(*bytes, "round-trip.gr", gr);
  if (!back.ok())
    contract_violation("round trip failed", back.status().message());
  if (*back != *g)
    contract_violation("round trip changed the graph", "");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  ReadOptions options;
  check(input, options);
  // The option-dependent paths: 1-based ids, symmetrizing, float .gr data.
  options.index_base = 1;
  options.symmetrize = true;
  options.gr_weight_type = WeightType::kFloat32;
  check(input, options);
  return 0;
}
