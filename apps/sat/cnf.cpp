// DIMACS CNF reading and writing, and random 3-SAT (cnf.h).
#include "sat/cnf.h"

#include <cstdio>

#include "graph/file.h"
#include "graph/random.h"
#include "graph/reader_util.h"

namespace dd::sat {
namespace {

using dd::graph::file_error;
using dd::graph::line_error;
using dd::graph::str_cat;
using dd::graph::detail::LineReader;
using dd::graph::detail::parse_u64;
using dd::graph::detail::quote;
using dd::graph::detail::Tokens;

constexpr const char *kProblemLine = "'p cnf VARIABLES CLAUSES'";

// A literal token: an optional '-' and decimal digits. Fills `magnitude`
// and `negative`, or returns false.
bool parse_literal(std::string_view token, std::uint64_t &magnitude, bool &negative) {
  negative = !token.empty() && token[0] == '-';
  if (negative)
    token.remove_prefix(1);
  const std::optional<std::uint64_t> value = parse_u64(token);
  if (!value)
    return false;
  magnitude = *value;
  return true;
}

} // namespace

Status validate(const Cnf &cnf) {
  if (cnf.num_vars > kMaxVariables)
    return Status::error(str_cat(cnf.num_vars, " variables, more than ", kMaxVariables));
  if (cnf.clause_offsets.empty() || cnf.clause_offsets[0] != 0)
    return Status::error("clause offsets do not start at 0");
  if (cnf.clause_offsets.back() != cnf.literals.size())
    return Status::error("clause offsets do not end at the number of literals");
  for (std::uint64_t c = 0; c < cnf.num_clauses(); ++c)
    if (cnf.clause_offsets[c + 1] <= cnf.clause_offsets[c])
      return Status::error(str_cat("clause ", c + 1, " is empty"));
  for (std::uint64_t k = 0; k < cnf.literals.size(); ++k) {
    const std::int64_t lit = cnf.literals[k];
    if (lit == 0 || (lit < 0 ? -lit : lit) > std::int64_t{cnf.num_vars})
      return Status::error(str_cat("literal ", lit, " is not in [-", cnf.num_vars, ", ",
                                   cnf.num_vars, "] without 0"));
  }
  return Status();
}

Expected<Cnf> parse_cnf(std::string_view data, std::string_view name, const CnfReadOptions &) {
  LineReader lines(data);
  std::string_view line;
  bool have_problem = false;
  std::uint64_t problem_line = 0;
  std::uint64_t declared_clauses = 0;
  Cnf cnf;
  // The clause being read: its first line (0 while none is open).
  std::uint64_t open_line = 0;

  while (lines.next(line)) {
    const std::uint64_t at = lines.number();
    Tokens tokens(line);
    std::string_view token;
    if (!tokens.next(token))
      continue; // blank
    if (token[0] == 'c')
      continue; // comment ("c" and "c..." alike)
    if (token[0] == '%')
      break; // SATLIB's end marker

    if (token == "p") {
      if (have_problem)
        return line_error(name, at, str_cat("a second problem line (the first is line ",
                                            problem_line, ")"));
      std::string_view type, v_text, c_text;
      if (!tokens.next(type) || !tokens.next(v_text) || !tokens.next(c_text) || !tokens.done())
        return line_error(name, at, str_cat("expected the problem line ", kProblemLine));
      if (type != "cnf")
        return line_error(name, at, str_cat("problem type ", quote(type),
                                            " is not 'cnf' (conjunctive normal form)"));
      const std::optional<std::uint64_t> v = parse_u64(v_text);
      const std::optional<std::uint64_t> c = parse_u64(c_text);
      if (!v)
        return line_error(name, at, str_cat("variable count ", quote(v_text),
                                            " is not a non-negative integer"));
      if (!c)
        return line_error(name, at, str_cat("clause count ", quote(c_text),
                                            " is not a non-negative integer"));
      if (*v > kMaxVariables)
        return line_error(name, at, str_cat(*v, " variables, more than the ", kMaxVariables,
                                            " a literal (int32) can name"));
      if (*v > kFreeVariables + data.size())
        return line_error(name, at, str_cat(*v, " variables declared, but a file of ",
                                            data.size(), " bytes can mention at most ",
                                            kFreeVariables + data.size()));
      if (*c > kMaxClauses)
        return line_error(name, at, str_cat(*c, " clauses, more than ", kMaxClauses));
      if (std::optional<std::string> problem =
              dd::graph::detail::declared_count_problem(*c, data.size(), 4, "clauses"))
        return line_error(name, at, *problem);
      cnf.num_vars = static_cast<std::uint32_t>(*v);
      declared_clauses = *c;
      have_problem = true;
      problem_line = at;
      cnf.clause_offsets.reserve(*c + 1);
      // Three literals per clause is the common case; the file bounds it.
      cnf.literals.reserve(dd::graph::detail::safe_reserve(3 * *c, data.size(), 2));
      continue;
    }

    if (!have_problem)
      return line_error(name, at, str_cat("clause before the problem line ", kProblemLine));
    do {
      std::uint64_t magnitude = 0;
      bool negative = false;
      if (!parse_literal(token, magnitude, negative))
        return line_error(name, at, str_cat("literal ", quote(token), " is not an integer"));
      if (magnitude == 0) {
        if (open_line == 0)
          return line_error(name, at, "empty clause (a 0 with no literal before it)");
        if (cnf.num_clauses() == declared_clauses)
          return line_error(name, open_line,
                            str_cat("more clauses than the ", declared_clauses,
                                    " declared on line ", problem_line));
        cnf.clause_offsets.push_back(static_cast<std::uint32_t>(cnf.literals.size()));
        open_line = 0;
        continue;
      }
      if (magnitude > cnf.num_vars)
        return line_error(name, at, str_cat("literal ", quote(token), " is out of range: the "
                                            "problem line declares ", cnf.num_vars,
                                            " variables"));
      if (cnf.literals.size() == kMaxLiterals)
        return line_error(name, at, str_cat("more than ", kMaxLiterals, " literals"));
      if (open_line == 0) {
        open_line = at;
      }
      const std::int32_t lit = static_cast<std::int32_t>(magnitude);
      cnf.literals.push_back(negative ? -lit : lit);
    } while (tokens.next(token));
  }

  if (!have_problem)
    return line_error(name, lines.number() > 0 ? lines.number() : 1,
                      str_cat("end of file without a problem line ", kProblemLine));
  if (open_line != 0)
    return line_error(name, open_line, "the last clause is not ended by 0");
  if (cnf.num_clauses() != declared_clauses)
    return line_error(name, problem_line,
                      str_cat("the problem line declares ", declared_clauses,
                              " clauses but the file has ", cnf.num_clauses()));
  return cnf;
}

Expected<Cnf> read_cnf(const std::string &path, const CnfReadOptions &options) {
  Expected<std::string> data = dd::graph::read_file(path, options.max_stream_bytes);
  if (!data.ok())
    return data.status();
  return parse_cnf(*data, path, options);
}

Expected<std::string> cnf_text(const Cnf &cnf, std::string_view comment) {
  if (Status s = validate(cnf); !s.ok())
    return Status::error("invalid formula: " + s.message());
  std::string text;
  text.reserve(cnf.literals.size() * 8 + cnf.num_clauses() * 3 + comment.size() + 64);
  while (!comment.empty()) {
    const std::size_t nl = comment.find('\n');
    text += "c ";
    text.append(comment.substr(0, nl));
    text += '\n';
    comment = nl == std::string_view::npos ? std::string_view() : comment.substr(nl + 1);
  }
  text += str_cat("p cnf ", cnf.num_vars, ' ', cnf.num_clauses(), '\n');
  char buf[16];
  for (std::uint64_t c = 0; c < cnf.num_clauses(); ++c) {
    for (std::uint64_t k = cnf.clause_offsets[c]; k < cnf.clause_offsets[c + 1]; ++k) {
      const int n = std::snprintf(buf, sizeof buf, "%d ", cnf.literals[k]);
      text.append(buf, static_cast<std::size_t>(n));
    }
    text += "0\n";
  }
  return text;
}

Status write_cnf(const Cnf &cnf, const std::string &path, std::string_view comment) {
  Expected<std::string> text = cnf_text(cnf, comment);
  if (!text.ok())
    return file_error(path, text.status().message());
  return dd::graph::write_file(path, *text);
}

Expected<Cnf> generate_3sat(const Random3SatParams &p) {
  if (p.num_vars < 3)
    return Status::error(str_cat("random 3-SAT needs at least 3 variables, not ", p.num_vars));
  if (p.num_vars > kMaxVariables)
    return Status::error(str_cat(p.num_vars, " variables, more than ", kMaxVariables));
  if (p.num_clauses > kMaxLiterals / 3)
    return Status::error(str_cat(p.num_clauses, " clauses, more than the ", kMaxLiterals / 3,
                                 " whose literals fit in 32 bits"));
  Cnf cnf;
  cnf.num_vars = static_cast<std::uint32_t>(p.num_vars);
  cnf.clause_offsets.reserve(p.num_clauses + 1);
  cnf.literals.reserve(3 * p.num_clauses);
  dd::graph::Xoshiro256 rng(p.seed);
  for (std::uint64_t c = 0; c < p.num_clauses; ++c) {
    std::int32_t vars[3];
    int have = 0;
    while (have < 3) {
      const std::int32_t v = static_cast<std::int32_t>(rng.below(p.num_vars) + 1);
      bool seen = false;
      for (int i = 0; i < have; ++i)
        seen = seen || vars[i] == v;
      if (!seen)
        vars[have++] = v;
    }
    const std::uint64_t signs = rng.next();
    for (int i = 0; i < 3; ++i)
      if ((signs >> i) & 1)
        vars[i] = -vars[i];
    cnf.add_clause(vars, 3);
  }
  return cnf;
}

bool satisfies(const Cnf &cnf, const std::vector<std::uint8_t> &assignment,
               std::uint64_t *first_false) {
  for (std::uint64_t c = 0; c < cnf.num_clauses(); ++c) {
    bool sat = false;
    for (std::uint64_t k = cnf.clause_offsets[c]; k < cnf.clause_offsets[c + 1] && !sat; ++k) {
      const std::int32_t lit = cnf.literals[k];
      const std::uint32_t v = static_cast<std::uint32_t>(lit < 0 ? -lit : lit) - 1;
      sat = v < assignment.size() && (assignment[v] != 0) == (lit > 0);
    }
    if (!sat) {
      if (first_false)
        *first_false = c;
      return false;
    }
  }
  return true;
}

} // namespace dd::sat
