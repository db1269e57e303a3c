// Survey propagation's rounds on the GPU: a thread per clause computes its
// new surveys (survey.h, the same arithmetic as the CPU reference) and
// multiplies each one's factor (1 - eta) into its variable's product for the
// next round (atomic), or leaves the products to a thread per variable that
// gathers them (gather). Two clauses of one variable meet on its product
// whenever they run at once, which is why a plain store there loses
// factors (docs/sp.md, "The GPU variants").
#include <cooperative_groups.h>
#include <cuda/atomic>

#include "sat/sp_kernels.h"
#include "sat/survey.h"

namespace dd::sat::gpu {

namespace {

// The baseline's multiplication: CUDA has no atomic multiply, so codes like
// LonestarGPU's loop on atomicCAS over the double's bits until no other
// thread changed the word in between. Exact: every factor lands.
__device__ void atomic_multiply(double *address, double f) {
  auto *word = reinterpret_cast<unsigned long long *>(address);
  unsigned long long seen = *word;
  unsigned long long expected;
  do {
    expected = seen;
    const double product = __longlong_as_double(static_cast<long long>(expected)) * f;
    seen = atomicCAS(word, expected, static_cast<unsigned long long>(__double_as_longlong(product)));
  } while (seen != expected);
}

struct AtomicMultiply {
  double *pos;
  double *neg;
  __device__ void operator()(unsigned v, bool negative, double f) {
    atomic_multiply(&(negative ? neg : pos)[v], f);
  }
};

// The gather variant's clause pass: the products come later.
struct NoContribution {
  __device__ void operator()(unsigned, bool, double) {}
};

// Any thread whose surveys moved writes 1; no thread writes anything else,
// so the plain store needs no atomic.
__device__ void flag_moved(int *moved) {
  cuda::atomic_ref<int, cuda::thread_scope_device>(*moved).store(1, cuda::memory_order_relaxed);
}

} // namespace

__global__ void reset_products(double *a, double *b, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = 1.0;
    b[i] = 1.0;
  }
}

__global__ void sp_round_atomic(unsigned num_clauses, const unsigned *clause_offsets,
                                const unsigned char *clause_live, const unsigned *edge_var,
                                const unsigned char *edge_negative,
                                const unsigned char *edge_live, const double *prod_pos,
                                const double *prod_neg, const double *eta, double *eta_next,
                                double *ratio, double *next_pos, double *next_neg,
                                double epsilon, double damping, int *moved) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= num_clauses || !clause_live[c])
    return;
  AtomicMultiply contribute{next_pos, next_neg};
  if (survey::update_clause(clause_offsets[c], clause_offsets[c + 1], edge_var, edge_negative,
                            edge_live, prod_pos, prod_neg, eta, eta_next, ratio, epsilon,
                            damping, contribute))
    flag_moved(moved);
}

__global__ void sp_round_surveys(unsigned num_clauses, const unsigned *clause_offsets,
                                 const unsigned char *clause_live, const unsigned *edge_var,
                                 const unsigned char *edge_negative,
                                 const unsigned char *edge_live, const double *prod_pos,
                                 const double *prod_neg, const double *eta, double *eta_next,
                                 double *ratio, double epsilon, double damping, int *moved) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= num_clauses || !clause_live[c])
    return;
  NoContribution contribute;
  if (survey::update_clause(clause_offsets[c], clause_offsets[c + 1], edge_var, edge_negative,
                            edge_live, prod_pos, prod_neg, eta, eta_next, ratio, epsilon,
                            damping, contribute))
    flag_moved(moved);
}

// One variable's products for the next round, in the CPU's order: its
// edges in increasing order, each factor multiplied into a product that
// starts at 1.
static __device__ void gather_one(unsigned v, const unsigned *var_offsets, const unsigned *var_edges,
                           const unsigned char *edge_negative, const unsigned char *edge_live,
                           const double *eta, double *prod_pos, double *prod_neg) {
  double pos = 1.0, neg = 1.0;
  for (unsigned k = var_offsets[v]; k < var_offsets[v + 1]; ++k) {
    const unsigned e = var_edges[k];
    if (!edge_live[e])
      continue;
    if (edge_negative[e])
      neg *= survey::factor(eta[e]);
    else
      pos *= survey::factor(eta[e]);
  }
  prod_pos[v] = pos;
  prod_neg[v] = neg;
}

__global__ void gather_products(unsigned num_vars, const unsigned *var_offsets,
                                const unsigned *var_edges, const unsigned char *edge_negative,
                                const unsigned char *edge_live, const double *eta,
                                double *prod_pos, double *prod_neg) {
  const unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < num_vars)
    gather_one(v, var_offsets, var_edges, edge_negative, edge_live, eta, prod_pos, prod_neg);
}

// Clause c's new surveys of round cur -> next, its factors handed to
// `contribute`; whether a survey moved.
template <class Contribute>
__device__ bool clause_round(const RoundArgs &a, unsigned c, unsigned cur, unsigned next,
                             Contribute contribute) {
  return survey::update_clause(a.clause_offsets[c], a.clause_offsets[c + 1], a.edge_var,
                               a.edge_negative, a.edge_live, a.prod_pos[cur], a.prod_neg[cur],
                               a.eta[cur], a.eta[next], a.ratio, a.epsilon, a.damping, contribute);
}

// The rounds of one convergence in one cooperative launch: the grid syncs
// where the host loop's launches end, and each thread reads the round's
// flag after the last sync, so no round waits for the host. Round r
// (from 1) reads buffers (r - 1) & 1 and writes r & 1; its flag is
// moved[r % 3], cleared by thread 0 in round r - 1 (no thread reads it
// then: its last readers read it before round r - 2's end).
template <bool Gather> __device__ void run_rounds(const RoundArgs &a) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned round = 0;
  bool converged = false;
  while (round < a.max_rounds) {
    ++round;
    const unsigned cur = (round - 1) & 1, next = round & 1;
    int *const moved = a.moved + round % 3;
    if (first == 0)
      cuda::atomic_ref<int, cuda::thread_scope_device>(a.moved[(round + 1) % 3])
          .store(0, cuda::memory_order_relaxed);
    if (!Gather) {
      for (unsigned v = first; v < a.num_vars; v += stride)
        a.prod_pos[next][v] = a.prod_neg[next][v] = 1.0;
      grid.sync();
    }
    for (unsigned c = first; c < a.num_clauses; c += stride) {
      if (!a.clause_live[c])
        continue;
      if (Gather ? clause_round(a, c, cur, next, NoContribution{})
                 : clause_round(a, c, cur, next, AtomicMultiply{a.prod_pos[next], a.prod_neg[next]}))
        flag_moved(moved);
    }
    grid.sync();
    if (Gather) {
      for (unsigned v = first; v < a.num_vars; v += stride)
        gather_one(v, a.var_offsets, a.var_edges, a.edge_negative, a.edge_live, a.eta[next],
                   a.prod_pos[next], a.prod_neg[next]);
      grid.sync();
    }
    converged = cuda::atomic_ref<int, cuda::thread_scope_device>(*moved).load(
                    cuda::memory_order_relaxed) == 0;
    if (converged)
      break;
  }
  if (first == 0) {
    *a.rounds = round;
    *a.converged = converged ? 1 : 0;
  }
}

__global__ void sp_rounds_atomic(RoundArgs a) { run_rounds<false>(a); }
__global__ void sp_rounds_gather(RoundArgs a) { run_rounds<true>(a); }

} // namespace dd::sat::gpu
