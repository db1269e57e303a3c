// DIMACS CNF: the reader (layouts, every class of bad input with its line),
// the writer, and the random 3-SAT generator.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sat/cnf.h"

namespace dd::sat {
namespace {

Cnf parse_ok(std::string_view text) {
  Expected<Cnf> cnf = parse_cnf(text, "f.cnf");
  EXPECT_TRUE(cnf.ok()) << cnf.status().message();
  if (!cnf.ok())
    return Cnf();
  EXPECT_TRUE(validate(*cnf).ok()) << validate(*cnf).message();
  return std::move(cnf).value();
}

void expect_error(std::string_view text, const std::string &message) {
  Expected<Cnf> cnf = parse_cnf(text, "f.cnf");
  ASSERT_FALSE(cnf.ok()) << "parsing unexpectedly succeeded:\n" << text;
  EXPECT_EQ(cnf.status().message(), message);
}

TEST(Cnf, ReadsClausesAcrossAndWithinLines) {
  const Cnf cnf = parse_ok("c a comment\np cnf 4 3\n1 -2 0 3\n4 0\r\n\nc inside\n-1 -4 0\n");
  EXPECT_EQ(cnf.num_vars, 4u);
  ASSERT_EQ(cnf.num_clauses(), 3u);
  EXPECT_EQ(cnf.clause_offsets, (std::vector<std::uint32_t>{0, 2, 4, 6}));
  EXPECT_EQ(cnf.literals, (std::vector<std::int32_t>{1, -2, 3, 4, -1, -4}));
}

TEST(Cnf, SatlibEndMarkerEndsTheFile) {
  const Cnf cnf = parse_ok("p cnf 3 1\n 1 2 3 0\n%\n0\n\n");
  EXPECT_EQ(cnf.num_clauses(), 1u);
}

TEST(Cnf, KeepsRepeatsAndTautologies) {
  const Cnf cnf = parse_ok("p cnf 2 2\n1 1 2 0\n1 -1 0\n");
  EXPECT_EQ(cnf.literals, (std::vector<std::int32_t>{1, 1, 2, 1, -1}));
}

TEST(Cnf, NoClauses) {
  const Cnf cnf = parse_ok("p cnf 5 0\n");
  EXPECT_EQ(cnf.num_vars, 5u);
  EXPECT_EQ(cnf.num_clauses(), 0u);
}

TEST(Cnf, Errors) {
  expect_error("", "f.cnf:1: end of file without a problem line 'p cnf VARIABLES CLAUSES'");
  expect_error("c only\n", "f.cnf:1: end of file without a problem line 'p cnf VARIABLES CLAUSES'");
  expect_error("1 2 0\n", "f.cnf:1: clause before the problem line 'p cnf VARIABLES CLAUSES'");
  expect_error("p cnf 3 1\np cnf 3 1\n", "f.cnf:2: a second problem line (the first is line 1)");
  expect_error("p cnf 3\n", "f.cnf:1: expected the problem line 'p cnf VARIABLES CLAUSES'");
  expect_error("p sp 3 1\n", "f.cnf:1: problem type 'sp' is not 'cnf' (conjunctive normal form)");
  expect_error("p cnf x 1\n", "f.cnf:1: variable count 'x' is not a non-negative integer");
  expect_error("p cnf 3 -1\n", "f.cnf:1: clause count '-1' is not a non-negative integer");
  expect_error("p cnf 3 1\n1 x 0\n", "f.cnf:2: literal 'x' is not an integer");
  expect_error("p cnf 3 1\n1 - 0\n", "f.cnf:2: literal '-' is not an integer");
  expect_error("p cnf 3 1\n1 -4 0\n",
               "f.cnf:2: literal '-4' is out of range: the problem line declares 3 variables");
  expect_error("p cnf 3 2\n1 0\n0\n", "f.cnf:3: empty clause (a 0 with no literal before it)");
  expect_error("p cnf 3 1\n1 0\n2\n0\n",
               "f.cnf:3: more clauses than the 1 declared on line 1");
  expect_error("p cnf 3 3\n1 0\n2 0\n",
               "f.cnf:1: the problem line declares 3 clauses but the file has 2");
  expect_error("p cnf 3 1\n1 2\n3\n", "f.cnf:2: the last clause is not ended by 0");
  expect_error("p cnf 3 100\n1 0\n",
               "f.cnf:1: 100 clauses declared, but the file's 16 bytes can hold at most 4");
  expect_error("p cnf 3000000000 1\n1 0\n",
               "f.cnf:1: 3000000000 variables, more than the 2147483647 a literal (int32) can "
               "name");
  expect_error("p cnf 2000000000 1\n1 0\n",
               "f.cnf:1: 2000000000 variables declared, but a file of 23 bytes can mention at "
               "most 1048599");
}

TEST(Cnf, WriterRoundTrips) {
  const Cnf cnf = parse_ok("p cnf 4 3\n1 -2 0\n3 4 0\n-1 -4 2 0\n");
  Expected<std::string> text = cnf_text(cnf, "two\nlines");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "c two\nc lines\np cnf 4 3\n1 -2 0\n3 4 0\n-1 -4 2 0\n");
  const Cnf again = parse_ok(*text);
  EXPECT_EQ(again.literals, cnf.literals);
  EXPECT_EQ(again.clause_offsets, cnf.clause_offsets);
}

TEST(Cnf, WriterRejectsInvalid) {
  Cnf cnf;
  cnf.num_vars = 2;
  const std::int32_t lits[] = {1, 3};
  cnf.add_clause(lits, 2);
  Expected<std::string> text = cnf_text(cnf);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), "invalid formula: literal 3 is not in [-2, 2] without 0");
}

TEST(Random3Sat, ThreeDistinctVariablesAndDeterministic) {
  Random3SatParams p;
  p.num_vars = 50;
  p.num_clauses = 2000;
  p.seed = 7;
  Expected<Cnf> a = generate_3sat(p);
  Expected<Cnf> b = generate_3sat(p);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(validate(*a).ok());
  EXPECT_EQ(a->literals, b->literals);
  ASSERT_EQ(a->num_clauses(), 2000u);
  std::uint64_t negative = 0;
  std::set<std::int32_t> seen_vars;
  for (std::uint64_t c = 0; c < a->num_clauses(); ++c) {
    ASSERT_EQ(a->clause_offsets[c + 1] - a->clause_offsets[c], 3u);
    std::set<std::int32_t> vars;
    for (std::uint32_t k = a->clause_offsets[c]; k < a->clause_offsets[c + 1]; ++k) {
      const std::int32_t lit = a->literals[k];
      vars.insert(lit < 0 ? -lit : lit);
      seen_vars.insert(lit < 0 ? -lit : lit);
      negative += lit < 0;
    }
    EXPECT_EQ(vars.size(), 3u);
  }
  EXPECT_EQ(seen_vars.size(), 50u);
  // Signs are fair coins: 6000 of them, mean 3000, sd ~39.
  EXPECT_GT(negative, 2800u);
  EXPECT_LT(negative, 3200u);
  p.seed = 8;
  Expected<Cnf> c = generate_3sat(p);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(c->literals, a->literals);
}

TEST(Random3Sat, Errors) {
  Random3SatParams p;
  p.num_vars = 2;
  Expected<Cnf> cnf = generate_3sat(p);
  ASSERT_FALSE(cnf.ok());
  EXPECT_EQ(cnf.status().message(), "random 3-SAT needs at least 3 variables, not 2");
}

TEST(Cnf, Satisfies) {
  const Cnf cnf = parse_ok("p cnf 3 2\n1 -2 0\n2 3 0\n");
  std::uint64_t first = 99;
  EXPECT_TRUE(satisfies(cnf, {1, 1, 0}));
  EXPECT_FALSE(satisfies(cnf, {0, 1, 0}, &first));
  EXPECT_EQ(first, 0u);
  EXPECT_FALSE(satisfies(cnf, {1, 0, 0}, &first));
  EXPECT_EQ(first, 1u);
}

} // namespace
} // namespace dd::sat
