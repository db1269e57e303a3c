// The kernels of survey propagation's GPU rounds (sp_kernels.cu), declared
// for the engine (sp_gpu.cu). CUDA only.
#ifndef DD_SAT_SP_KERNELS_H
#define DD_SAT_SP_KERNELS_H

namespace dd::sat::gpu {

/// Sets the n products in `a` and `b` to 1 (the next round's start).
__global__ void reset_products(double *a, double *b, unsigned n);

/// One round for every live clause (a thread each): new surveys into
/// eta_next, their factors multiplied into next_pos / next_neg, *moved set
/// to 1 when a survey moved by epsilon or more. The variants differ only in
/// that multiplication: an atomicCAS loop, or a plain load and store.
__global__ void sp_round_atomic(unsigned num_clauses, const unsigned *clause_offsets,
                                const unsigned char *clause_live, const unsigned *edge_var,
                                const unsigned char *edge_negative,
                                const unsigned char *edge_live, const double *prod_pos,
                                const double *prod_neg, const double *eta, double *eta_next,
                                double *ratio, double *next_pos, double *next_neg,
                                double epsilon, double damping, int *moved);
/// Where gather_products reads a variable's factors: its edges' slots
/// (slot_factor set: slot k belongs to edge var_edges[k], its sign in
/// slot_negative) or its edges' surveys (slot_factor null).
struct GatherArgs {
  const unsigned *var_offsets, *var_edges;
  const unsigned char *edge_negative, *edge_live;
  const unsigned char *slot_negative;
  const double *slot_factor;
};

/// The gather variant's round, in two launches: sp_round_surveys computes
/// every live clause's new surveys and, with slot_factor set, stores each
/// one's factor in the edge's slot of its variable's list
/// (slot_factor[slot_of[e]]); then gather_products gives each variable (a
/// thread each) its products, negative and positive occurrences apart, in
/// edge order: no two threads write one word, and the products are the CPU
/// reference's, bit for bit. fill_slots sets every slot to 1.0 before a
/// convergence's first round: a dead edge's slot is never written and must
/// not change a product.
__global__ void sp_round_surveys(unsigned num_clauses, const unsigned *clause_offsets,
                                 const unsigned char *clause_live, const unsigned *edge_var,
                                 const unsigned char *edge_negative,
                                 const unsigned char *edge_live, const double *prod_pos,
                                 const double *prod_neg, const double *eta, double *eta_next,
                                 double *ratio, const unsigned *slot_of, double *slot_factor,
                                 double epsilon, double damping, int *moved);
__global__ void fill_slots(double *slot_factor, unsigned n);
/// `eta`: the round's new surveys (read when gathering by edge).
__global__ void gather_products(unsigned num_vars, GatherArgs g, const double *eta,
                                double *prod_pos, double *prod_neg);

/// What sp_rounds_atomic and sp_rounds_gather read and write: the formula,
/// the state's two buffers (this round's and the next's, by the round's
/// parity: index 0 holds the state uploaded), three convergence flags (zero
/// at the launch), and where the rounds run and whether they converged go.
struct RoundArgs {
  unsigned num_clauses, num_vars, max_rounds;
  const unsigned *clause_offsets;
  const unsigned char *clause_live;
  const unsigned *edge_var;
  const unsigned char *edge_negative, *edge_live;
  GatherArgs gather;      ///< gather: where the products come from
  const unsigned *slot_of; ///< gather by slot: edge -> its slot
  double *slot_factor;     ///< gather by slot: gather.slot_factor, written
  double *eta[2], *prod_pos[2], *prod_neg[2];
  double *ratio;
  double epsilon, damping;
  int *moved;
  unsigned *rounds;
  int *converged;
};

/// Every round of one convergence (at most a.max_rounds) in one launch,
/// which must be cooperative (cudaLaunchCooperativeKernel, every block
/// resident): the atomic variant's reset and clause pass a round, or the
/// gather variant's clause and variable passes.
__global__ void sp_rounds_atomic(RoundArgs a);
__global__ void sp_rounds_gather(RoundArgs a);

} // namespace dd::sat::gpu

#endif // DD_SAT_SP_KERNELS_H
