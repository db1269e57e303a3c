// Survey propagation on the host: the factor graph, the CPU reference's
// rounds, decimation with unit propagation, WalkSAT, and the checks of
// --verify (sp.h, docs/sp.md).
#include "sat/sp.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "graph/random.h"
#include "sat/survey.h"

namespace dd::sat {

using dd::graph::str_cat;

FactorGraph build_factor_graph(const Cnf &cnf) {
  FactorGraph g;
  g.num_vars = cnf.num_vars;
  g.clause_offsets.reserve(cnf.num_clauses() + 1);
  g.edge_var.reserve(cnf.num_literals());
  g.edge_negative.reserve(cnf.num_literals());
  g.edge_clause.reserve(cnf.num_literals());
  g.input_clause.reserve(cnf.num_clauses());
  // The last clause that mentioned each variable, and with which sign: finds
  // repeats and tautologies in one pass per clause.
  std::vector<std::uint32_t> seen_in(cnf.num_vars, 0xffffffffu);
  std::vector<std::uint8_t> seen_negative(cnf.num_vars, 0);
  for (std::uint64_t c = 0; c < cnf.num_clauses(); ++c) {
    const std::uint32_t begin = cnf.clause_offsets[c], end = cnf.clause_offsets[c + 1];
    bool tautology = false;
    for (std::uint32_t k = begin; k < end && !tautology; ++k) {
      const std::int32_t lit = cnf.literals[k];
      const std::uint32_t v = static_cast<std::uint32_t>(lit < 0 ? -lit : lit) - 1;
      if (seen_in[v] == c)
        tautology = seen_negative[v] != (lit < 0);
      seen_in[v] = static_cast<std::uint32_t>(c);
      seen_negative[v] = lit < 0;
    }
    if (tautology) {
      ++g.tautologies;
      continue;
    }
    const std::uint32_t clause = g.num_clauses();
    for (std::uint32_t k = begin; k < end; ++k) {
      const std::int32_t lit = cnf.literals[k];
      const std::uint32_t v = static_cast<std::uint32_t>(lit < 0 ? -lit : lit) - 1;
      // Second sighting in this clause: marked by the pass below.
      seen_in[v] = 0xffffffffu;
    }
    for (std::uint32_t k = begin; k < end; ++k) {
      const std::int32_t lit = cnf.literals[k];
      const std::uint32_t v = static_cast<std::uint32_t>(lit < 0 ? -lit : lit) - 1;
      if (seen_in[v] == c)
        continue; // a repeated literal
      seen_in[v] = static_cast<std::uint32_t>(c);
      g.edge_var.push_back(v);
      g.edge_negative.push_back(lit < 0);
      g.edge_clause.push_back(clause);
    }
    g.clause_offsets.push_back(g.num_edges());
    g.input_clause.push_back(static_cast<std::uint32_t>(c));
  }
  // Variable -> edges (CSR), edges in increasing order.
  g.var_offsets.assign(std::uint64_t{g.num_vars} + 1, 0);
  for (std::uint32_t v : g.edge_var)
    ++g.var_offsets[v + 1];
  for (std::uint32_t v = 0; v < g.num_vars; ++v)
    g.var_offsets[v + 1] += g.var_offsets[v];
  g.var_edges.resize(g.num_edges());
  std::vector<std::uint32_t> next(g.var_offsets.begin(), g.var_offsets.end() - 1);
  for (std::uint32_t e = 0; e < g.num_edges(); ++e)
    g.var_edges[next[g.edge_var[e]]++] = e;
  return g;
}

SpState initial_state(const FactorGraph &graph, const SpOptions &options) {
  SpState s;
  s.eta.resize(graph.num_edges());
  for (std::uint32_t e = 0; e < graph.num_edges(); ++e)
    s.eta[e] = dd::graph::to_unit_double(dd::graph::hash64(options.seed, e));
  s.clause_live.assign(graph.num_clauses(), 1);
  s.edge_live.assign(graph.num_edges(), 1);
  s.value.assign(graph.num_vars, -1);
  s.satisfied_by.assign(graph.num_clauses(), SpState::kNone);
  gather_products(graph, s);
  return s;
}

void gather_products(const FactorGraph &graph, SpState &state) {
  state.prod_pos.assign(graph.num_vars, 1.0);
  state.prod_neg.assign(graph.num_vars, 1.0);
  for (std::uint32_t v = 0; v < graph.num_vars; ++v)
    for (std::uint32_t k = graph.var_offsets[v]; k < graph.var_offsets[v + 1]; ++k) {
      const std::uint32_t e = graph.var_edges[k];
      if (!state.edge_live[e])
        continue;
      double &p = graph.edge_negative[e] ? state.prod_neg[v] : state.prod_pos[v];
      p *= survey::factor(state.eta[e]);
    }
}

namespace {

// The CPU's contribution: a plain multiplication, clause order.
struct HostMultiply {
  double *pos;
  double *neg;
  void operator()(unsigned, unsigned v, bool negative, double f) { (negative ? neg : pos)[v] *= f; }
};

} // namespace

bool cpu_round(const FactorGraph &graph, SpState &state, double epsilon, double damping,
               std::vector<double> &eta_next, std::vector<double> &next_pos,
               std::vector<double> &next_neg, std::vector<double> &ratio) {
  eta_next.resize(graph.num_edges());
  ratio.resize(graph.num_edges());
  next_pos.assign(graph.num_vars, 1.0);
  next_neg.assign(graph.num_vars, 1.0);
  HostMultiply contribute{next_pos.data(), next_neg.data()};
  bool moved = false;
  for (std::uint32_t c = 0; c < graph.num_clauses(); ++c)
    if (state.clause_live[c])
      moved = survey::update_clause(graph.clause_offsets[c], graph.clause_offsets[c + 1],
                                    graph.edge_var.data(), graph.edge_negative.data(),
                                    state.edge_live.data(), state.prod_pos.data(),
                                    state.prod_neg.data(), state.eta.data(), eta_next.data(),
                                    ratio.data(), epsilon, damping, contribute) ||
              moved;
  // Dead edges keep their survey (they are never read again).
  for (std::uint32_t e = 0; e < graph.num_edges(); ++e)
    if (state.edge_live[e])
      state.eta[e] = eta_next[e];
  state.prod_pos.swap(next_pos);
  state.prod_neg.swap(next_neg);
  return moved;
}

Expected<Convergence> CpuEngine::converge(const FactorGraph &graph, SpState &state,
                                          const SpOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<double> eta_next, next_pos, next_neg, ratio;
  Convergence result;
  while (result.rounds < options.max_rounds && !result.converged) {
    ++result.rounds;
    result.converged =
        !cpu_round(graph, state, options.epsilon, options.damping, eta_next, next_pos,
                   next_neg, ratio);
  }
  result.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count();
  return result;
}

void biases(const FactorGraph &graph, const SpState &state, std::vector<double> &plus,
            std::vector<double> &minus) {
  plus.assign(graph.num_vars, 0.0);
  minus.assign(graph.num_vars, 0.0);
  for (std::uint32_t v = 0; v < graph.num_vars; ++v)
    if (state.value[v] < 0) {
      const survey::Bias b = survey::bias(state.prod_pos[v], state.prod_neg[v]);
      plus[v] = b.plus;
      minus[v] = b.minus;
    }
}

const char *kind_name(Outcome::Kind kind) {
  switch (kind) {
  case Outcome::Kind::kSat:
    return "sat";
  case Outcome::Kind::kContradiction:
    return "unsolved contradiction";
  case Outcome::Kind::kNotConverged:
    return "unsolved not-converged";
  case Outcome::Kind::kWalksatFailed:
    return "unsolved walksat";
  }
  return "unsolved";
}

namespace {

// Fixing variables and propagating units on the host.
class Propagator {
public:
  // Counts the live literals of every clause as the state has them (earlier
  // decimations removed some).
  Propagator(const FactorGraph &graph, SpState &state) : graph_(graph), state_(state) {
    live_count_.assign(graph.num_clauses(), 0);
    for (std::uint32_t c = 0; c < graph.num_clauses(); ++c)
      for (std::uint32_t e = graph.clause_offsets[c]; e < graph.clause_offsets[c + 1]; ++e)
        live_count_[c] += state.edge_live[e];
  }

  // Queues the live unit clauses (the input's, before any round).
  void queue_units() {
    for (std::uint32_t c = 0; c < graph_.num_clauses(); ++c)
      if (state_.clause_live[c] && live_count_[c] == 1)
        units_.push_back(graph_.clause_offsets[c]);
  }

  // Sets v to `value` and propagates; false on a contradiction (a clause
  // lost its last literal).
  bool fix(std::uint32_t v, bool value) {
    assign(v, value);
    return propagate();
  }
  bool propagate() {
    // Stops at the first contradiction: the values then stay as they are.
    while (!units_.empty() && !contradiction) {
      const std::uint32_t e = units_.back();
      units_.pop_back();
      const std::uint32_t c = graph_.edge_clause[e];
      if (!state_.clause_live[c])
        continue;
      // The clause's one live edge: its variable is unfixed (fixing a
      // variable visits all its edges).
      std::uint32_t live = SpState::kNone;
      for (std::uint32_t k = graph_.clause_offsets[c]; k < graph_.clause_offsets[c + 1]; ++k)
        if (state_.edge_live[k])
          live = k;
      if (live == SpState::kNone)
        continue;
      ++units_fixed;
      assign(graph_.edge_var[live], graph_.edge_negative[live] == 0);
    }
    return !contradiction;
  }

  std::uint64_t units_fixed = 0;
  bool contradiction = false;

private:
  void assign(std::uint32_t v, bool value) {
    state_.value[v] = value ? 1 : 0;
    for (std::uint32_t k = graph_.var_offsets[v]; k < graph_.var_offsets[v + 1]; ++k) {
      const std::uint32_t e = graph_.var_edges[k];
      const std::uint32_t c = graph_.edge_clause[e];
      if (!state_.clause_live[c])
        continue;
      if ((graph_.edge_negative[e] == 0) == value) {
        state_.clause_live[c] = 0;
        state_.satisfied_by[c] = e;
        for (std::uint32_t j = graph_.clause_offsets[c]; j < graph_.clause_offsets[c + 1]; ++j)
          state_.edge_live[j] = 0;
      } else {
        state_.edge_live[e] = 0;
        if (--live_count_[c] == 0)
          contradiction = true;
        else if (live_count_[c] == 1)
          units_.push_back(e);
      }
    }
  }

  const FactorGraph &graph_;
  SpState &state_;
  std::vector<std::uint32_t> live_count_;
  std::vector<std::uint32_t> units_;
};

} // namespace

bool fix_variable(const FactorGraph &graph, SpState &state, std::uint32_t v, bool value,
                  std::uint64_t &units) {
  Propagator propagator(graph, state);
  const bool ok = propagator.fix(v, value);
  units += propagator.units_fixed;
  return ok;
}

WalksatResult walksat(const FactorGraph &graph, SpState &state, const SpOptions &options) {
  // The live clauses and, per unfixed variable, its live occurrences.
  std::vector<std::uint32_t> clauses;
  for (std::uint32_t c = 0; c < graph.num_clauses(); ++c)
    if (state.clause_live[c])
      clauses.push_back(c);
  std::vector<std::uint32_t> index(graph.num_clauses(), 0);
  for (std::uint32_t i = 0; i < clauses.size(); ++i)
    index[clauses[i]] = i;
  dd::graph::Xoshiro256 rng(dd::graph::hash64(options.seed, 0x5a7));
  for (std::uint32_t v = 0; v < graph.num_vars; ++v)
    if (state.value[v] < 0)
      state.value[v] = static_cast<std::int8_t>(rng.next() & 1);
  const auto is_true = [&](std::uint32_t e) {
    return (state.value[graph.edge_var[e]] == 1) == (graph.edge_negative[e] == 0);
  };
  std::vector<std::uint32_t> true_count(clauses.size(), 0);
  std::vector<std::uint32_t> unsat, unsat_pos(clauses.size(), 0);
  for (std::uint32_t i = 0; i < clauses.size(); ++i) {
    const std::uint32_t c = clauses[i];
    for (std::uint32_t e = graph.clause_offsets[c]; e < graph.clause_offsets[c + 1]; ++e)
      if (state.edge_live[e] && is_true(e))
        ++true_count[i];
    if (true_count[i] == 0) {
      unsat_pos[i] = static_cast<std::uint32_t>(unsat.size());
      unsat.push_back(i);
    }
  }
  const auto make_sat = [&](std::uint32_t i) {
    const std::uint32_t last = unsat.back();
    unsat[unsat_pos[i]] = last;
    unsat_pos[last] = unsat_pos[i];
    unsat.pop_back();
  };
  const auto make_unsat = [&](std::uint32_t i) {
    unsat_pos[i] = static_cast<std::uint32_t>(unsat.size());
    unsat.push_back(i);
  };
  // Clauses a flip of v would leave false: those whose only true literal is v's.
  const auto break_count = [&](std::uint32_t v) {
    std::uint32_t n = 0;
    for (std::uint32_t k = graph.var_offsets[v]; k < graph.var_offsets[v + 1]; ++k) {
      const std::uint32_t e = graph.var_edges[k];
      if (state.edge_live[e] && is_true(e) && true_count[index[graph.edge_clause[e]]] == 1)
        ++n;
    }
    return n;
  };
  const auto flip = [&](std::uint32_t v) {
    state.value[v] = static_cast<std::int8_t>(1 - state.value[v]);
    for (std::uint32_t k = graph.var_offsets[v]; k < graph.var_offsets[v + 1]; ++k) {
      const std::uint32_t e = graph.var_edges[k];
      if (!state.edge_live[e])
        continue;
      const std::uint32_t i = index[graph.edge_clause[e]];
      if (is_true(e)) {
        if (true_count[i]++ == 0)
          make_sat(i);
      } else if (--true_count[i] == 0) {
        make_unsat(i);
      }
    }
  };
  std::uint64_t budget = options.max_flips;
  if (budget == 0)
    budget = 100000 + 1000 * std::uint64_t{graph.num_vars};
  WalksatResult result;
  while (!unsat.empty() && result.flips < budget) {
    const std::uint32_t c = clauses[unsat[rng.below(unsat.size())]];
    std::uint32_t best = 0xffffffffu, best_break = 0xffffffffu, live = 0;
    for (std::uint32_t e = graph.clause_offsets[c]; e < graph.clause_offsets[c + 1]; ++e)
      if (state.edge_live[e]) {
        ++live;
        const std::uint32_t b = break_count(graph.edge_var[e]);
        if (b < best_break) {
          best_break = b;
          best = graph.edge_var[e];
        }
      }
    if (best_break > 0 && rng.unit() < options.noise) {
      std::uint64_t pick = rng.below(live);
      for (std::uint32_t e = graph.clause_offsets[c]; e < graph.clause_offsets[c + 1]; ++e)
        if (state.edge_live[e] && pick-- == 0) {
          best = graph.edge_var[e];
          break;
        }
    }
    flip(best);
    ++result.flips;
  }
  result.solved = unsat.empty();
  return result;
}

namespace {

// The shared start of solve() and cpu_first_convergence(): the initial
// state with the input's unit clauses propagated. False on a contradiction.
bool start(const FactorGraph &graph, const SpOptions &options, SpState &state,
           std::uint64_t &units) {
  state = initial_state(graph, options);
  Propagator propagator(graph, state);
  propagator.queue_units();
  const bool ok = propagator.propagate();
  units = propagator.units_fixed;
  gather_products(graph, state);
  return ok;
}

// Gathers the products from the surveys into `state` and returns how many
// of the engine's products were not within rounding (a relative 1e-9) of
// them.
std::uint64_t reconcile_products(const FactorGraph &graph, SpState &state) {
  const std::vector<double> pos = state.prod_pos, neg = state.prod_neg;
  gather_products(graph, state);
  std::uint64_t inexact = 0;
  const auto off = [](double engine, double exact) {
    return !(survey::distance(engine, exact) <= 1e-9 * exact);
  };
  for (std::uint32_t v = 0; v < graph.num_vars; ++v)
    inexact += off(pos[v], state.prod_pos[v]) + off(neg[v], state.prod_neg[v]);
  return inexact;
}

void record(const FactorGraph &graph, const SpState &state, const Convergence &convergence,
            FirstConvergence &first) {
  first.ran = true;
  first.convergence = convergence;
  first.eta = state.eta;
  first.edge_live = state.edge_live;
  biases(graph, state, first.plus, first.minus);
}

} // namespace

Expected<Outcome> solve(const FactorGraph &graph, Engine &engine, const SpOptions &options) {
  Outcome out;
  SpState &state = out.state;
  if (!start(graph, options, state, out.fixed_by_units)) {
    out.kind = Outcome::Kind::kContradiction;
  } else {
    std::vector<double> plus, minus;
    std::vector<std::uint32_t> candidates;
    for (;;) {
      bool any_live = false;
      for (std::uint32_t c = 0; c < graph.num_clauses() && !any_live; ++c)
        any_live = state.clause_live[c] != 0;
      if (!any_live)
        break; // every clause satisfied
      Expected<Convergence> conv = engine.converge(graph, state, options);
      if (!conv.ok())
        return conv.status();
      out.rounds += conv->rounds;
      out.sp_ms += conv->ms;
      // Biases and decimation use products gathered here from the surveys:
      // the engine's own (the last round's scatter) are exact on the CPU
      // and with gather, equal up to rounding with atomics; one that lost a
      // factor is counted. Then replaced.
      out.inexact_products += reconcile_products(graph, state);
      if (!out.first.ran)
        record(graph, state, *conv, out.first);
      if (!conv->converged) {
        out.kind = Outcome::Kind::kNotConverged;
        break;
      }
      // The unfixed variables that still occur in a live clause, by bias.
      biases(graph, state, plus, minus);
      candidates.clear();
      double largest = 0;
      for (std::uint32_t v = 0; v < graph.num_vars; ++v) {
        if (state.value[v] >= 0)
          continue;
        bool occurs = false;
        for (std::uint32_t k = graph.var_offsets[v]; k < graph.var_offsets[v + 1] && !occurs; ++k)
          occurs = state.edge_live[graph.var_edges[k]] != 0;
        if (!occurs)
          continue;
        candidates.push_back(v);
        largest = std::max(largest, std::fabs(plus[v] - minus[v]));
      }
      if (largest < options.paramagnetic) {
        // Paramagnetic: the surveys say nothing more; WalkSAT takes the rest.
        for (std::uint32_t c = 0; c < graph.num_clauses(); ++c)
          out.walksat_clauses += state.clause_live[c];
        out.walksat_vars = candidates.size();
        const WalksatResult w = walksat(graph, state, options);
        out.flips = w.flips;
        if (!w.solved)
          out.kind = Outcome::Kind::kWalksatFailed;
        break;
      }
      const std::uint64_t count = std::max<std::uint64_t>(
          1, static_cast<std::uint64_t>(options.fraction * static_cast<double>(candidates.size())));
      const auto by_bias = [&](std::uint32_t a, std::uint32_t b) {
        const double ba = std::fabs(plus[a] - minus[a]), bb = std::fabs(plus[b] - minus[b]);
        return ba != bb ? ba > bb : a < b;
      };
      const auto mid = candidates.begin() + static_cast<std::ptrdiff_t>(count);
      std::nth_element(candidates.begin(), mid - 1, candidates.end(), by_bias);
      std::sort(candidates.begin(), mid, by_bias);
      ++out.decimations;
      Propagator propagator(graph, state);
      bool ok = true;
      for (auto it = candidates.begin(); it != mid && ok; ++it) {
        if (state.value[*it] >= 0)
          continue; // fixed by a unit of an earlier one
        ++out.fixed_by_sp;
        ok = propagator.fix(*it, plus[*it] > minus[*it]);
      }
      out.fixed_by_units += propagator.units_fixed;
      if (!ok) {
        out.kind = Outcome::Kind::kContradiction;
        break;
      }
      gather_products(graph, state);
    }
  }
  out.assignment.assign(graph.num_vars, 0);
  for (std::uint32_t v = 0; v < graph.num_vars; ++v)
    out.assignment[v] = state.value[v] == 1;
  return out;
}

Expected<FirstConvergence> cpu_first_convergence(const FactorGraph &graph,
                                                 const SpOptions &options) {
  FirstConvergence first;
  SpState state;
  std::uint64_t units = 0;
  if (!start(graph, options, state, units))
    return first; // a contradiction before any round: nothing to compare
  bool any_live = false;
  for (std::uint32_t c = 0; c < graph.num_clauses() && !any_live; ++c)
    any_live = state.clause_live[c] != 0;
  if (!any_live)
    return first;
  CpuEngine engine;
  Expected<Convergence> conv = engine.converge(graph, state, options);
  if (!conv.ok())
    return conv.status();
  reconcile_products(graph, state);
  record(graph, state, *conv, first);
  return first;
}

std::optional<std::string> check_outcome(const Cnf &cnf, const FactorGraph &graph,
                                         const Outcome &outcome) {
  const SpState &s = outcome.state;
  for (std::uint32_t c = 0; c < graph.num_clauses(); ++c) {
    const std::uint32_t e = s.satisfied_by[c];
    if (e == SpState::kNone)
      continue;
    const std::uint32_t v = graph.edge_var[e];
    if (e < graph.clause_offsets[c] || e >= graph.clause_offsets[c + 1] ||
        s.value[v] != (graph.edge_negative[e] ? 0 : 1))
      return str_cat("clause ", graph.input_clause[c] + 1,
                     " was decided by a literal of variable ", v + 1,
                     " that does not satisfy it");
  }
  // Unit propagation leaves no live clause with fewer than two live
  // literals (a contradiction stops it half-way).
  if (outcome.kind != Outcome::Kind::kContradiction)
    for (std::uint32_t c = 0; c < graph.num_clauses(); ++c) {
      if (!s.clause_live[c])
        continue;
      std::uint32_t live = 0;
      for (std::uint32_t e = graph.clause_offsets[c]; e < graph.clause_offsets[c + 1]; ++e)
        live += s.edge_live[e];
      if (live < 2)
        return str_cat("clause ", graph.input_clause[c] + 1, " was left undecided with ", live,
                       " live literal", live == 1 ? "" : "s", " (unit propagation missed it)");
    }
  if (outcome.kind == Outcome::Kind::kSat) {
    std::uint64_t first_false = 0;
    if (!satisfies(cnf, outcome.assignment, &first_false))
      return str_cat("the assignment leaves clause ", first_false + 1, " false");
  }
  return std::nullopt;
}

Expected<Difference> compare_first(const FirstConvergence &a, const FirstConvergence &b) {
  Difference d;
  if (a.ran != b.ran)
    return Status::error("one implementation ran survey propagation and the other did not");
  if (!a.ran)
    return d;
  if (a.convergence.converged != b.convergence.converged)
    return Status::error(str_cat("the first convergence: one implementation converged (in ",
                                 a.convergence.converged ? a.convergence.rounds
                                                         : b.convergence.rounds,
                                 " rounds) and the other did not"));
  if (a.edge_live != b.edge_live || a.eta.size() != b.eta.size() ||
      a.plus.size() != b.plus.size())
    return Status::error("the first convergences ran on different live edges");
  // A NaN on either side counts as an infinite difference.
  const auto worse = [](double &most, double x, double y) {
    const double d = survey::distance(x, y);
    most = d == d ? std::max(most, d) : std::numeric_limits<double>::infinity();
  };
  for (std::size_t e = 0; e < a.eta.size(); ++e)
    if (a.edge_live[e])
      worse(d.eta, a.eta[e], b.eta[e]);
  for (std::size_t v = 0; v < a.plus.size(); ++v) {
    worse(d.bias, a.plus[v], b.plus[v]);
    worse(d.bias, a.minus[v], b.minus[v]);
  }
  return d;
}

} // namespace dd::sat
