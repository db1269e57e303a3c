// CNF formulas: the DIMACS CNF reader and writer, and the uniform random
// 3-SAT generator (`dd-graph generate 3sat`).
//
//   auto f = dd::sat::read_cnf("uf250.cnf");
//   if (!f.ok()) { std::fprintf(stderr, "%s\n", f.status().message().c_str()); ... }
//   for (std::uint64_t c = 0; c < f->num_clauses(); ++c)
//     for (std::uint64_t k = f->clause_offsets[c]; k < f->clause_offsets[c + 1]; ++k)
//       ... f->literals[k] ...   // +v or -v, v in [1, num_vars]
//
// DIMACS CNF as read here (the SAT competitions' format):
//   c <comment>              comment lines, anywhere; blank lines are skipped
//   p cnf <V> <C>            exactly once, before the first clause
//   <lit> <lit> ... 0        clauses: non-zero integers in [-V, V] ended by 0;
//                            a clause may span lines and a line may hold
//                            several clauses
//   %                        SATLIB's end marker: the rest of the file is
//                            ignored (its uf*.cnf files end in "%\n0\n")
// Exactly C clauses; none empty (a lone 0); the last one ended by its 0.
// Literals are kept as read: duplicates and tautologies (x and -x) are the
// solver's business. Errors are "FILE:LINE: message" (docs/graphs.md).
// Sizes are checked against the file before anything is allocated: at most
// 2^31 - 1 variables and no more than kFreeVariables plus one per byte of the
// file (a variable must be mentioned to matter), at most 2^32 - 1 clauses
// and literals, and no more clauses than the bytes can hold (4 each: "1 0\n").
#ifndef DD_SAT_CNF_H
#define DD_SAT_CNF_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/errors.h"

namespace dd::sat {

using dd::graph::Expected;
using dd::graph::Status;

/// The most variables (a literal is an int32) and clauses/literals (uint32
/// ids on the GPU).
inline constexpr std::uint64_t kMaxVariables = 0x7fffffffull;
inline constexpr std::uint64_t kMaxClauses = 0xffffffffull;
inline constexpr std::uint64_t kMaxLiterals = 0xffffffffull;
/// Variables a file may declare beyond one per byte of its size.
inline constexpr std::uint64_t kFreeVariables = std::uint64_t{1} << 20;

/// A formula in conjunctive normal form: clause c is
/// literals[clause_offsets[c] .. clause_offsets[c + 1]), DIMACS literals
/// (+v true, -v false, v in [1, num_vars]).
struct Cnf {
  std::uint32_t num_vars = 0;
  std::vector<std::uint32_t> clause_offsets = std::vector<std::uint32_t>(1, 0);
  std::vector<std::int32_t> literals;

  std::uint64_t num_clauses() const { return clause_offsets.size() - 1; }
  std::uint64_t num_literals() const { return literals.size(); }
  /// Appends a clause (no checks; validate() has them).
  void add_clause(const std::int32_t *lits, std::uint64_t n) {
    literals.insert(literals.end(), lits, lits + n);
    clause_offsets.push_back(static_cast<std::uint32_t>(literals.size()));
  }
};

/// Checks a Cnf's invariants (offsets, literals in range and non-zero, no
/// empty clause); the message names the first problem.
Status validate(const Cnf &cnf);

struct CnfReadOptions {
  /// A stream (anything but a regular file) longer than this is an error.
  std::uint64_t max_stream_bytes = std::uint64_t{4} << 30;
};

/// Parses `data` as DIMACS CNF called `name` (used in messages).
Expected<Cnf> parse_cnf(std::string_view data, std::string_view name,
                        const CnfReadOptions &options = {});
/// Reads the DIMACS CNF file `path`.
Expected<Cnf> read_cnf(const std::string &path, const CnfReadOptions &options = {});

/// The DIMACS CNF text of `cnf`: each line of `comment` as a "c" line, then
/// "p cnf V C" and one line per clause ending in 0.
Expected<std::string> cnf_text(const Cnf &cnf, std::string_view comment = {});
/// Writes cnf_text() to `path` (complete or absent, graph/file.h).
Status write_cnf(const Cnf &cnf, const std::string &path, std::string_view comment = {});

/// Uniform random 3-SAT: `num_clauses` clauses, each of three distinct
/// variables drawn uniformly from [1, num_vars] (one xoshiro256** stream
/// seeded with `seed`, graph/random.h: per clause, Xoshiro256::below(V) until
/// three distinct values came, then one next() whose bits 0, 1 and 2 make the
/// first, second and third literal negative when set). The same seed gives
/// the same formula on every platform.
struct Random3SatParams {
  std::uint64_t num_vars = 1000;
  std::uint64_t num_clauses = 4200;
  std::uint64_t seed = 1;
};
/// Errors: fewer than 3 variables, or sizes over the limits above.
Expected<Cnf> generate_3sat(const Random3SatParams &params);

/// Whether `assignment` (index v - 1: the value of variable v) satisfies
/// every clause; if not, the index of the first clause it leaves false.
bool satisfies(const Cnf &cnf, const std::vector<std::uint8_t> &assignment,
               std::uint64_t *first_false = nullptr);

} // namespace dd::sat

#endif // DD_SAT_CNF_H
