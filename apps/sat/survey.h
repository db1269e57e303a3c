// The per-element arithmetic of survey propagation, shared by the CPU
// reference (sp.cpp) and the GPU kernels (sp_kernels.cu) so that both compute
// each value with the same operations in the same order (the GPU library is
// built with --fmad=false: no fused multiply-adds either). docs/sp.md has
// the equations.
//
// Notation, for clause a and variable j in it (edge a-j), with eta the
// surveys (clause -> variable warnings) of the current round:
//   P+(j) = prod over the live clauses b where j occurs positively of
//           (1 - eta[b->j]), P-(j) likewise for the negative occurrences;
//   for a's edge to j: Ps = the product over j's clauses of the same sign as
//   in a, a excluded (P+(j) or P-(j) divided by a's own factor), Pu = the
//   product over the opposite sign.
#ifndef DD_SAT_SURVEY_H
#define DD_SAT_SURVEY_H

#if defined(__CUDACC__)
#define DD_SP_HD __host__ __device__ inline
#else
#define DD_SP_HD inline
#endif

namespace dd::sat::survey {

/// The smallest factor (1 - eta) used: a survey that rounds to 1 would make
/// a factor 0, and dividing it back out of the product impossible.
/// Clamping keeps every product positive unless it underflows.
constexpr double kMinFactor = 1e-10;

/// The factor an edge contributes to its variable's product: 1 - eta,
/// at least kMinFactor.
DD_SP_HD double factor(double eta) {
  const double f = 1.0 - eta;
  return f < kMinFactor ? kMinFactor : f;
}

/// The message of variable j to clause a, Pi_u / (Pi_u + Pi_s + Pi_0), from
/// the product of j's other same-sign factors `same` and its opposite-sign
/// factors `opposite`:
///   Pi_u = (1 - opposite) * same   j is forced to violate a
///   Pi_s = (1 - same) * opposite   j is forced to satisfy a
///   Pi_0 = same * opposite         j is free
/// 0 when all three are 0 (both products underflowed: contradictory
/// warnings, which decimation then resolves).
DD_SP_HD double ratio(double same, double opposite) {
  const double pu = (1.0 - opposite) * same;
  const double ps = (1.0 - same) * opposite;
  const double p0 = same * opposite;
  const double den = pu + ps + p0;
  return den > 0.0 ? pu / den : 0.0;
}

/// ratio() for edge a-j from j's products: `negative` says how j occurs in
/// a; `eta` is a's current survey to j, whose factor is divided out.
DD_SP_HD double edge_ratio(double prod_pos, double prod_neg, bool negative, double eta) {
  const double same = (negative ? prod_neg : prod_pos) / factor(eta);
  const double opposite = negative ? prod_pos : prod_neg;
  return ratio(same, opposite);
}

/// |a - b|.
DD_SP_HD double distance(double a, double b) { return a > b ? a - b : b - a; }

/// A variable's bias from its products: W+ (forced true), W- (forced
/// false); the bias is |W+ - W-| and decimation sets the variable true when
/// W+ > W-.
struct Bias {
  double plus;
  double minus;
};
DD_SP_HD Bias bias(double prod_pos, double prod_neg) {
  const double pt = (1.0 - prod_pos) * prod_neg;
  const double pf = (1.0 - prod_neg) * prod_pos;
  const double p0 = prod_pos * prod_neg;
  const double den = pt + pf + p0;
  if (!(den > 0.0))
    return Bias{0.0, 0.0};
  return Bias{pt / den, pf / den};
}

/// One clause's round (docs/sp.md, "Schedule"): from the products of the
/// previous round, the new surveys of the clause's live edges
/// [begin, end), written to eta_next, and each one's factor handed to
/// `contribute(edge, var, negative, factor)` for the next round's products.
/// ratio[] is scratch space per edge. Each new survey is the product of the
/// other live edges' ratios, by prefix and suffix products (no division),
/// mixed with the old one as damping * old + (1 - damping) * new (damping 0:
/// the plain update, bit for bit).
/// Returns whether one of them moved by `epsilon` or more.
template <class Contribute>
DD_SP_HD bool update_clause(unsigned begin, unsigned end, const unsigned *edge_var,
                            const unsigned char *edge_negative,
                            const unsigned char *edge_live, const double *prod_pos,
                            const double *prod_neg, const double *eta, double *eta_next,
                            double *ratio, double epsilon, double damping,
                            Contribute &contribute) {
  for (unsigned e = begin; e < end; ++e)
    if (edge_live[e]) {
      const unsigned v = edge_var[e];
      ratio[e] = edge_ratio(prod_pos[v], prod_neg[v], edge_negative[e] != 0, eta[e]);
    }
  double prefix = 1.0;
  for (unsigned e = begin; e < end; ++e)
    if (edge_live[e]) {
      eta_next[e] = prefix;
      prefix *= ratio[e];
    }
  double suffix = 1.0;
  bool moved = false;
  for (unsigned e = end; e-- > begin;)
    if (edge_live[e]) {
      const double survey = damping * eta[e] + (1.0 - damping) * (eta_next[e] * suffix);
      eta_next[e] = survey;
      suffix *= ratio[e];
      moved = moved || distance(survey, eta[e]) >= epsilon;
      contribute(e, edge_var[e], edge_negative[e] != 0, factor(survey));
    }
  return moved;
}

} // namespace dd::sat::survey

#endif // DD_SAT_SURVEY_H
