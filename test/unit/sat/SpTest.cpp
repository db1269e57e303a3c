// Survey propagation on the host: the factor graph, the survey arithmetic
// the GPU kernels share (survey.h) against the equations written out
// directly, the effect of the GPU's other multiplication orders, and the
// solver on formulas with known outcomes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sat/cnf.h"
#include "sat/sp.h"
#include "sat/survey.h"

namespace dd::sat {
namespace {

Cnf parse_ok(std::string_view text) {
  Expected<Cnf> cnf = parse_cnf(text, "f.cnf");
  EXPECT_TRUE(cnf.ok()) << cnf.status().message();
  return cnf.ok() ? std::move(cnf).value() : Cnf();
}

Cnf random_3sat(std::uint64_t vars, double ratio, std::uint64_t seed) {
  Random3SatParams p;
  p.num_vars = vars;
  p.num_clauses = static_cast<std::uint64_t>(ratio * vars + 0.5);
  p.seed = seed;
  Expected<Cnf> cnf = generate_3sat(p);
  EXPECT_TRUE(cnf.ok());
  return std::move(cnf).value();
}

TEST(FactorGraph, DropsTautologiesAndRepeats) {
  const Cnf cnf = parse_ok("p cnf 3 3\n1 1 -2 0\n2 -2 3 0\n-3 1 0\n");
  const FactorGraph g = build_factor_graph(cnf);
  EXPECT_EQ(g.tautologies, 1u);
  ASSERT_EQ(g.num_clauses(), 2u);
  EXPECT_EQ(g.input_clause, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(g.edge_var, (std::vector<std::uint32_t>{0, 1, 2, 0}));
  EXPECT_EQ(g.edge_negative, (std::vector<std::uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(g.var_offsets, (std::vector<std::uint32_t>{0, 2, 3, 4}));
  EXPECT_EQ(g.var_edges, (std::vector<std::uint32_t>{0, 3, 1, 2}));
}

TEST(Survey, Ratio) {
  // No other clause on either side: j is free, it never violates a.
  EXPECT_EQ(survey::ratio(1.0, 1.0), 0.0);
  // Certainly warned by the opposite side, nothing on a's side: forced to
  // violate a.
  EXPECT_EQ(survey::ratio(1.0, 0.0), 1.0);
  // pu = 0.5 * 0.8, ps = 0.2 * 0.5, p0 = 0.8 * 0.5.
  EXPECT_NEAR(survey::ratio(0.8, 0.5), 0.4 / 0.9, 1e-15);
  // Both sides underflowed: no defined ratio, 0.
  EXPECT_EQ(survey::ratio(0.0, 0.0), 0.0);
  EXPECT_EQ(survey::factor(1.0), survey::kMinFactor);
  const survey::Bias b = survey::bias(0.5, 1.0);
  EXPECT_NEAR(b.plus, 0.5, 1e-15);
  EXPECT_EQ(b.minus, 0.0);
}

// One Jacobi round written out from the equations (docs/sp.md): every
// product taken directly over the other clauses, no division.
std::vector<double> direct_round(const FactorGraph &g, const std::vector<double> &eta) {
  std::vector<double> next(eta.size());
  for (std::uint32_t a = 0; a < g.num_clauses(); ++a)
    for (std::uint32_t e = g.clause_offsets[a]; e < g.clause_offsets[a + 1]; ++e) {
      double product = 1;
      for (std::uint32_t f = g.clause_offsets[a]; f < g.clause_offsets[a + 1]; ++f) {
        if (f == e)
          continue;
        const std::uint32_t j = g.edge_var[f];
        double same = 1, opposite = 1;
        for (std::uint32_t k = g.var_offsets[j]; k < g.var_offsets[j + 1]; ++k) {
          const std::uint32_t b = g.var_edges[k];
          if (b == f)
            continue;
          (g.edge_negative[b] == g.edge_negative[f] ? same : opposite) *= 1 - eta[b];
        }
        const double pu = (1 - opposite) * same, ps = (1 - same) * opposite,
                     p0 = same * opposite;
        product *= pu / (pu + ps + p0);
      }
      next[e] = product;
    }
  return next;
}

TEST(Survey, RoundsMatchTheEquations) {
  const FactorGraph g = build_factor_graph(random_3sat(300, 4.2, 3));
  SpOptions options;
  SpState state = initial_state(g, options);
  std::vector<double> direct = state.eta;
  std::vector<double> eta_next, next_pos, next_neg, ratio;
  for (int round = 0; round < 30; ++round) {
    cpu_round(g, state, options.epsilon, 0.0, eta_next, next_pos, next_neg, ratio);
    direct = direct_round(g, direct);
    for (std::size_t e = 0; e < direct.size(); ++e)
      ASSERT_NEAR(state.eta[e], direct[e], 1e-9) << "round " << round << " edge " << e;
  }
}

// The GPU's atomic products come in any order: the CPU's rounds with the
// clauses' contributions applied in reverse order stay within rounding.
TEST(Survey, ContributionOrderOnlyRounds) {
  const FactorGraph g = build_factor_graph(random_3sat(500, 4.2, 4));
  SpOptions options;
  SpState a = initial_state(g, options);
  SpState b = a;
  std::vector<double> eta_next, next_pos, next_neg, ratio;
  for (int round = 0; round < 40; ++round) {
    cpu_round(g, a, options.epsilon, 0.0, eta_next, next_pos, next_neg, ratio);
    // b: the same round, clauses visited last to first.
    std::vector<double> pos(g.num_vars, 1.0), neg(g.num_vars, 1.0), nb(g.num_edges());
    auto contribute = [&](unsigned, unsigned v, bool negative, double f) { (negative ? neg : pos)[v] *= f; };
    for (std::uint32_t c = g.num_clauses(); c-- > 0;)
      survey::update_clause(g.clause_offsets[c], g.clause_offsets[c + 1], g.edge_var.data(),
                            g.edge_negative.data(), b.edge_live.data(), b.prod_pos.data(),
                            b.prod_neg.data(), b.eta.data(), nb.data(), ratio.data(),
                            options.epsilon, 0.0, contribute);
    b.eta = nb;
    b.prod_pos = pos;
    b.prod_neg = neg;
  }
  double most = 0;
  for (std::size_t e = 0; e < a.eta.size(); ++e)
    most = std::max(most, std::fabs(a.eta[e] - b.eta[e]));
  EXPECT_LT(most, 1e-9);
}

TEST(Solve, TrivialFormulaIsParamagnetic) {
  // Every variable occurs with one sign only: the surveys vanish, WalkSAT
  // finishes.
  const Cnf cnf = parse_ok("p cnf 4 3\n1 2 3 0\n1 4 0\n2 -3 0\n");
  const FactorGraph g = build_factor_graph(cnf);
  CpuEngine engine;
  Expected<Outcome> out = solve(g, engine, SpOptions());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->kind, Outcome::Kind::kSat);
  EXPECT_TRUE(satisfies(cnf, out->assignment));
  EXPECT_EQ(out->fixed_by_sp, 0u);
  EXPECT_FALSE(check_outcome(cnf, g, *out).has_value());
}

TEST(Solve, UnitClausesPropagate) {
  const Cnf cnf = parse_ok("p cnf 3 3\n1 0\n-1 2 0\n-2 3 0\n");
  const FactorGraph g = build_factor_graph(cnf);
  CpuEngine engine;
  Expected<Outcome> out = solve(g, engine, SpOptions());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->kind, Outcome::Kind::kSat);
  EXPECT_EQ(out->fixed_by_units, 3u);
  EXPECT_EQ(out->assignment, (std::vector<std::uint8_t>{1, 1, 1}));
  EXPECT_EQ(out->rounds, 0u);
  EXPECT_FALSE(out->first.ran);
  EXPECT_FALSE(check_outcome(cnf, g, *out).has_value());
}

TEST(Solve, ContradictionByUnits) {
  const Cnf cnf = parse_ok("p cnf 2 3\n1 0\n-1 2 0\n-2 0\n");
  const FactorGraph g = build_factor_graph(cnf);
  CpuEngine engine;
  Expected<Outcome> out = solve(g, engine, SpOptions());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->kind, Outcome::Kind::kContradiction);
  EXPECT_STREQ(kind_name(out->kind), "unsolved contradiction");
}

TEST(Solve, UnsatisfiableTwoClausesLeaveWalksatStuck) {
  // All four clauses over x1, x2: no assignment satisfies them.
  const Cnf cnf = parse_ok("p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n");
  const FactorGraph g = build_factor_graph(cnf);
  CpuEngine engine;
  SpOptions options;
  options.max_flips = 1000;
  Expected<Outcome> out = solve(g, engine, options);
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out->kind, Outcome::Kind::kSat);
  EXPECT_FALSE(check_outcome(cnf, g, *out).has_value());
}

TEST(Solve, RandomEasyFormulaIsSolvedDeterministically) {
  const Cnf cnf = random_3sat(2000, 3.0, 5);
  const FactorGraph g = build_factor_graph(cnf);
  CpuEngine engine;
  Expected<Outcome> a = solve(g, engine, SpOptions());
  Expected<Outcome> b = solve(g, engine, SpOptions());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->kind, Outcome::Kind::kSat);
  EXPECT_TRUE(satisfies(cnf, a->assignment));
  EXPECT_EQ(a->assignment, b->assignment);
  EXPECT_EQ(a->rounds, b->rounds);
  EXPECT_FALSE(check_outcome(cnf, g, *a).has_value());
  EXPECT_TRUE(a->first.ran);
  EXPECT_TRUE(a->first.convergence.converged);
}

TEST(Solve, HardFormulaDecimates) {
  // Ratio 4.2: surveys are not trivial, so decimation fixes variables, and
  // every clause it decided holds the deciding literal.
  const Cnf cnf = random_3sat(3000, 4.2, 1);
  const FactorGraph g = build_factor_graph(cnf);
  CpuEngine engine;
  Expected<Outcome> out = solve(g, engine, SpOptions());
  ASSERT_TRUE(out.ok());
  EXPECT_GT(out->fixed_by_sp, 0u);
  EXPECT_GT(out->decimations, 0u);
  EXPECT_FALSE(check_outcome(cnf, g, *out).has_value());
}

// A clause that lost a literal to one decimation becomes unit when the next
// removes another (regression: each decimation counted every clause's
// literals afresh, so the unit went unnoticed).
TEST(Propagation, UnitAcrossDecimations) {
  const Cnf cnf = parse_ok("p cnf 4 2\n1 2 3 0\n-3 4 0\n");
  const FactorGraph g = build_factor_graph(cnf);
  SpState state = initial_state(g, SpOptions());
  std::uint64_t units = 0;
  ASSERT_TRUE(fix_variable(g, state, 0, false, units)); // x1 false
  EXPECT_EQ(units, 0u);
  ASSERT_TRUE(fix_variable(g, state, 1, false, units)); // x2 false: x3, then x4
  EXPECT_EQ(units, 2u);
  EXPECT_EQ(state.value, (std::vector<std::int8_t>{0, 0, 1, 1}));
  EXPECT_EQ(state.clause_live, (std::vector<std::uint8_t>{0, 0}));
  // The same with nothing after the unit.
  const Cnf two = parse_ok("p cnf 3 1\n1 2 3 0\n");
  const FactorGraph g2 = build_factor_graph(two);
  SpState s2 = initial_state(g2, SpOptions());
  ASSERT_TRUE(fix_variable(g2, s2, 0, false, units));
  ASSERT_TRUE(fix_variable(g2, s2, 1, false, units)); // unit: x3 true
  EXPECT_EQ(s2.value[2], 1);
}

// Decimations fix variables one after another: a clause that lost a literal
// to an earlier decimation must be seen as unit when it loses the next
// (regression: each decimation counted every clause's literals afresh).
TEST(Solve, DecimationsKeepUnitPropagationExact) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Cnf cnf = random_3sat(1500, 4.2, seed);
    const FactorGraph g = build_factor_graph(cnf);
    CpuEngine engine;
    SpOptions options;
    options.fraction = 0.05;
    options.max_flips = 1000;
    Expected<Outcome> out = solve(g, engine, options);
    ASSERT_TRUE(out.ok());
    EXPECT_GT(out->decimations, 1u);
    const std::optional<std::string> problem = check_outcome(cnf, g, *out);
    EXPECT_FALSE(problem.has_value()) << *problem;
  }
}

TEST(Verify, FirstConvergenceComparison) {
  const FactorGraph g = build_factor_graph(random_3sat(1000, 4.2, 2));
  SpOptions options;
  Expected<FirstConvergence> a = cpu_first_convergence(g, options);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(a->ran);
  Expected<Difference> same = compare_first(*a, *a);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->eta, 0.0);
  EXPECT_EQ(same->bias, 0.0);
  FirstConvergence b = *a;
  b.eta[5] += 0.25;
  b.plus[7] = std::nan("");
  Expected<Difference> diff = compare_first(*a, b);
  ASSERT_TRUE(diff.ok());
  EXPECT_NEAR(diff->eta, 0.25, 1e-12);
  EXPECT_TRUE(std::isinf(diff->bias));
  b = *a;
  b.convergence.converged = !a->convergence.converged;
  EXPECT_FALSE(compare_first(*a, b).ok());
}

TEST(Verify, CheckOutcomeCatchesAWrongDecision) {
  const Cnf cnf = random_3sat(2000, 3.0, 5);
  const FactorGraph g = build_factor_graph(cnf);
  CpuEngine engine;
  Expected<Outcome> out = solve(g, engine, SpOptions());
  ASSERT_TRUE(out.ok());
  Outcome bad = *out;
  bad.state.satisfied_by[0] = g.clause_offsets[0];
  const std::uint32_t v = g.edge_var[g.clause_offsets[0]];
  bad.state.value[v] = g.edge_negative[g.clause_offsets[0]] ? 1 : 0;
  EXPECT_TRUE(check_outcome(cnf, g, bad).has_value());
  // A live clause left with one live literal: a unit propagation missed.
  bad = *out;
  for (std::uint32_t c = 0; c < g.num_clauses(); ++c)
    if (bad.state.clause_live[c]) {
      for (std::uint32_t e = g.clause_offsets[c] + 1; e < g.clause_offsets[c + 1]; ++e)
        bad.state.edge_live[e] = 0;
      break;
    }
  EXPECT_TRUE(check_outcome(cnf, g, bad).has_value());
  bad = *out;
  bad.assignment.assign(bad.assignment.size(), 0);
  std::uint64_t first = 0;
  if (!satisfies(cnf, bad.assignment, &first))
    EXPECT_TRUE(check_outcome(cnf, g, bad).has_value());
}

TEST(Walksat, SolvesASmallFormula) {
  const Cnf cnf = random_3sat(200, 3.5, 9);
  const FactorGraph g = build_factor_graph(cnf);
  SpOptions options;
  SpState state = initial_state(g, options);
  const WalksatResult r = walksat(g, state, options);
  ASSERT_TRUE(r.solved);
  std::vector<std::uint8_t> assignment(g.num_vars);
  for (std::uint32_t v = 0; v < g.num_vars; ++v)
    assignment[v] = state.value[v] == 1;
  EXPECT_TRUE(satisfies(cnf, assignment));
}

} // namespace
} // namespace dd::sat
