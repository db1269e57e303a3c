// libFuzzer harness for the DIMACS max-flow reader (apps/graph/dimacs_max.cpp)
// and, on every network it returns, the max-flow reference and checkers.
//
// Besides ASan + UBSan findings, each input checks the contract, and a
// violation traps:
//   - an error message starts with the file name and a location;
//   - a returned network is valid (validate()) and survives a write/read
//     round trip unchanged;
//   - Dinic's flow verifies (feasible, of the value it claims) and is maximum.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "graph/flow_network.h"
#include "graph/max_flow.h"

namespace {

using namespace dd::graph;

constexpr std::string_view kName = "fuzz-input";

[[noreturn]] void contract_violation(const char* what, const std::string& detail) {
  std::fprintf(stderr, "max-flow reader contract violated: %s: %s\n", what, detail.c_str());
  __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  ReadOptions options;
  options.max_vertices = 1 << 16;  // bound memory: the fuzzer's RSS limit is 2 GB
  Expected<FlowNetwork> net = parse_max_flow(input, kName, options);
  if (!net.ok()) {
    const std::string& message = net.status().message();
    if (message.compare(0, kName.size(), kName) != 0 || message.size() <= kName.size() + 2 ||
        message[kName.size()] != ':')
      contract_violation("error without the file name", message);
    return 0;
  }
  if (Status s = validate(*net); !s.ok())
    contract_violation("invalid network returned", s.message());
  Expected<std::string> text = max_flow_text(*net);
  if (!text.ok())
    contract_violation("cannot write a returned network", text.status().message());
  Expected<FlowNetwork> back = parse_max_flow(*text, "round-trip.max", options);
  if (!back.ok())
    contract_violation("round trip failed", back.status().message());
  if (back->row_offsets != net->row_offsets || back->heads != net->heads ||
      back->twins != net->twins || back->capacities != net->capacities ||
      back->arcs != net->arcs || back->source != net->source || back->sink != net->sink)
    contract_violation("round trip changed the network", "");
  Expected<MaxFlowResult> flow = max_flow_dinic(*net);
  if (!flow.ok())
    contract_violation("Dinic failed", flow.status().message());
  Expected<std::int64_t> value = verify_flow(*net, flow->flows);
  if (!value.ok() || *value != flow->value)
    contract_violation("Dinic's flow does not verify",
                       value.ok() ? std::to_string(*value) : value.status().message());
  if (Status s = check_maximum(*net, flow->flows); !s.ok())
    contract_violation("Dinic's flow is not maximum", s.message());
  return 0;
}
