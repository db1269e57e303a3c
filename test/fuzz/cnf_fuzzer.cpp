// libFuzzer harness for the DIMACS CNF reader (apps/sat/cnf.cpp) and, on
// every small formula it returns, survey propagation on the CPU
// (apps/sat/sp.cpp).
//
// Besides ASan + UBSan findings, each input checks the contract, and a
// violation traps:
//   - an error message starts with the file name and a location;
//   - a returned formula is valid (validate()) and survives a write/read
//     round trip unchanged;
//   - solve() (few rounds and flips) returns, its decisions pass
//     check_outcome(), and a "sat" assignment satisfies the formula.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "sat/cnf.h"
#include "sat/sp.h"

namespace {

using namespace dd::sat;

constexpr std::string_view kName = "fuzz-input";

[[noreturn]] void contract_violation(const char *what, const std::string &detail) {
  std::fprintf(stderr, "CNF reader / SP contract violated: %s: %s\n", what, detail.c_str());
  __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char *>(data), size);
  Expected<Cnf> cnf = parse_cnf(input, kName);
  if (!cnf.ok()) {
    const std::string &message = cnf.status().message();
    if (message.compare(0, kName.size(), kName) != 0 || message.size() <= kName.size() + 2 ||
        message[kName.size()] != ':')
      contract_violation("error without the file name", message);
    return 0;
  }
  if (Status s = validate(*cnf); !s.ok())
    contract_violation("invalid formula returned", s.message());
  Expected<std::string> text = cnf_text(*cnf);
  if (!text.ok())
    contract_violation("cannot write a returned formula", text.status().message());
  Expected<Cnf> back = parse_cnf(*text, "round-trip.cnf");
  if (!back.ok())
    contract_violation("cannot read a written formula", back.status().message());
  if (back->num_vars != cnf->num_vars || back->literals != cnf->literals ||
      back->clause_offsets != cnf->clause_offsets)
    contract_violation("round trip changed the formula", *text);
  // The declared variable count may be large; SP allocates per variable.
  if (cnf->num_vars > 4096)
    return 0;
  const FactorGraph graph = build_factor_graph(*cnf);
  CpuEngine engine;
  SpOptions options;
  options.max_rounds = 20;
  options.max_flips = 2000;
  Expected<Outcome> outcome = solve(graph, engine, options);
  if (!outcome.ok())
    contract_violation("solve failed", outcome.status().message());
  if (std::optional<std::string> problem = check_outcome(*cnf, graph, *outcome))
    contract_violation("a wrong decision", *problem);
  return 0;
}
