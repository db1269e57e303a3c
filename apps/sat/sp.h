// Survey propagation (Braunstein, Mezard, Zecchina 2005) on a CNF formula:
// the factor graph, the synchronous (Jacobi) round schedule every
// implementation follows, decimation, WalkSAT for the rest, and the checks
// of --verify. The GPU engines (sp_gpu.h) plug into solve() in place of the
// CPU's rounds; everything else runs on the host. docs/sp.md.
#ifndef DD_SAT_SP_H
#define DD_SAT_SP_H

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sat/cnf.h"

namespace dd::sat {

/// The clauses as solve() works on them: each clause's distinct literals
/// (a literal written twice counts once), tautologies (x and -x) left out.
/// Edge e is one literal of one clause; the edges of clause c are
/// [clause_offsets[c], clause_offsets[c + 1]) in the file's order, and the
/// edges of variable v are var_edges[var_offsets[v] .. var_offsets[v + 1])
/// in increasing order (so in clause order). Ids are 0-based.
struct FactorGraph {
  std::uint32_t num_vars = 0;
  std::vector<std::uint32_t> clause_offsets = std::vector<std::uint32_t>(1, 0);
  std::vector<std::uint32_t> edge_var;
  std::vector<std::uint8_t> edge_negative; ///< 1: the literal is -v
  std::vector<std::uint32_t> edge_clause;
  std::vector<std::uint32_t> var_offsets;
  std::vector<std::uint32_t> var_edges;
  /// The input clause of each clause here.
  std::vector<std::uint32_t> input_clause;
  std::uint64_t tautologies = 0;

  std::uint32_t num_clauses() const {
    return static_cast<std::uint32_t>(clause_offsets.size() - 1);
  }
  std::uint32_t num_edges() const { return static_cast<std::uint32_t>(edge_var.size()); }
};

FactorGraph build_factor_graph(const Cnf &cnf);

/// What SP works on: the surveys of the edges and the products of the
/// variables (survey.h), consistent with each other; the live clauses (not
/// yet satisfied), the live edges (a live clause's literals whose variable
/// is unfixed: a fixed variable's literal either satisfies its clause or is
/// false and removed), and the variables' values (-1: unfixed).
struct SpState {
  std::vector<double> eta;
  std::vector<double> prod_pos;
  std::vector<double> prod_neg;
  std::vector<std::uint8_t> clause_live;
  std::vector<std::uint8_t> edge_live;
  std::vector<std::int8_t> value;
  /// Per clause: the edge whose literal satisfied it (decimation, unit
  /// propagation), or kNone while live or when WalkSAT satisfied it.
  std::vector<std::uint32_t> satisfied_by;
  static constexpr std::uint32_t kNone = 0xffffffffu;
};

struct SpOptions {
  double epsilon = 1e-3;         ///< converged: every live survey moved less
  std::uint64_t max_rounds = 1000;
  double damping = 0;            ///< new survey = damping * old + (1 - damping) * computed
  double fraction = 0.01;        ///< of the unfixed variables fixed per decimation
  double paramagnetic = 0.01;    ///< largest bias below this: hand over to WalkSAT
  std::uint64_t seed = 1;        ///< initial surveys and WalkSAT
  std::uint64_t max_flips = 0;   ///< WalkSAT's budget; 0: 100000 + 1000 per variable
  double noise = 0.5;            ///< WalkSAT's random-walk probability
};

/// The initial state: surveys uniform in [0, 1) from hash64(seed, edge)
/// (graph/random.h), every clause and edge live, products gathered.
SpState initial_state(const FactorGraph &graph, const SpOptions &options);

/// Recomputes the products of every variable from the live edges, in each
/// variable's edge order (what a CPU round's clause-order scatter gives).
void gather_products(const FactorGraph &graph, SpState &state);

struct Convergence {
  bool converged = false;
  std::uint64_t rounds = 0;
  double ms = 0; ///< time of the rounds (GPU: CUDA events)
};

/// Runs synchronous rounds on `state` until one moves no live survey by
/// epsilon or more (converged) or max_rounds ran, leaving the last round's
/// surveys and the products of them in `state`.
class Engine {
public:
  virtual ~Engine() = default;
  virtual Expected<Convergence> converge(const FactorGraph &graph, SpState &state,
                                         const SpOptions &options) = 0;
  /// Kernel launches so far (0 on the CPU).
  virtual std::uint64_t launches() const { return 0; }
};

/// The CPU reference's rounds: clauses in order, each one's new surveys
/// from the previous round's products, its factors multiplied into the next
/// products in that order.
class CpuEngine : public Engine {
public:
  Expected<Convergence> converge(const FactorGraph &graph, SpState &state,
                                 const SpOptions &options) override;
};

/// One CPU round (for tests and the engine): returns whether a live survey
/// moved by epsilon or more.
bool cpu_round(const FactorGraph &graph, SpState &state, double epsilon, double damping,
               std::vector<double> &eta_next, std::vector<double> &next_pos,
               std::vector<double> &next_neg, std::vector<double> &ratio);

/// The biases W+ and W- of every variable (0 for fixed ones).
void biases(const FactorGraph &graph, const SpState &state, std::vector<double> &plus,
            std::vector<double> &minus);

/// The first convergence of a run, before any decimation: what --verify
/// compares between implementations.
struct FirstConvergence {
  bool ran = false;
  Convergence convergence;
  std::vector<double> eta;
  std::vector<std::uint8_t> edge_live;
  std::vector<double> plus, minus;
};

struct Outcome {
  enum class Kind { kSat, kContradiction, kNotConverged, kWalksatFailed };
  Kind kind = Kind::kSat;
  /// Index v - 1: the value of variable v (complete when kSat).
  std::vector<std::uint8_t> assignment;
  std::uint64_t fixed_by_sp = 0;    ///< by decimation
  std::uint64_t fixed_by_units = 0; ///< by unit propagation
  std::uint64_t decimations = 0;
  std::uint64_t rounds = 0;         ///< SP rounds, all convergences
  std::uint64_t walksat_vars = 0;   ///< unfixed variables handed to WalkSAT
  std::uint64_t walksat_clauses = 0;
  std::uint64_t flips = 0;
  double sp_ms = 0;                 ///< the engine's time
  /// Products the engine left after a convergence that were not within
  /// rounding of those gathered from its surveys (all convergences, both
  /// signs): 0 for the CPU and both GPU variants; a lost factor shows here.
  std::uint64_t inexact_products = 0;
  FirstConvergence first;
  SpState state;                    ///< the final state (decided clauses)
};

/// The words of the result line for `kind`: sat, unsolved contradiction,
/// unsolved not-converged, unsolved walksat.
const char *kind_name(Outcome::Kind kind);

/// Survey propagation with decimation (docs/sp.md): unit propagation of the
/// input, then until solved or stuck: converge; if the largest bias is below
/// options.paramagnetic (or nothing is left) hand the rest to WalkSAT, else
/// fix the most biased fraction of the unfixed variables and propagate.
Expected<Outcome> solve(const FactorGraph &graph, Engine &engine, const SpOptions &options);

/// The first convergence by the CPU reference, from the same start as
/// solve()'s (initial state, unit propagation of the input).
Expected<FirstConvergence> cpu_first_convergence(const FactorGraph &graph,
                                                 const SpOptions &options);

/// Checks that every clause decided by decimation or unit propagation holds
/// the literal that satisfied it under the final values, that no clause was
/// left live with fewer than two live literals (unless a contradiction
/// stopped the propagation), and, for kSat, that the assignment satisfies
/// every input clause. A message when one fails.
std::optional<std::string> check_outcome(const Cnf &cnf, const FactorGraph &graph,
                                         const Outcome &outcome);

/// The largest differences of surveys (live edges) and biases (unfixed
/// variables) between two first convergences; an error when they were not
/// run on the same live edges or one converged and the other did not.
struct Difference {
  double eta = 0;
  double bias = 0;
};
Expected<Difference> compare_first(const FirstConvergence &a, const FirstConvergence &b);

/// Fixes variable v to `value` in `state` as decimation does: its satisfied
/// clauses leave, its false literals leave their clauses, and the unit
/// clauses that makes are propagated (their count added to `units`). False
/// on a contradiction (a clause lost its last literal).
bool fix_variable(const FactorGraph &graph, SpState &state, std::uint32_t v, bool value,
                  std::uint64_t &units);

/// WalkSAT (Selman, Kautz, Cohen) on the live clauses' live literals, over
/// the unfixed variables, which it sets in `state.value`; returns the flips
/// made, or an error when max_flips flips left a clause false.
struct WalksatResult {
  bool solved = false;
  std::uint64_t flips = 0;
};
WalksatResult walksat(const FactorGraph &graph, SpState &state, const SpOptions &options);

} // namespace dd::sat

#endif // DD_SAT_SP_H
