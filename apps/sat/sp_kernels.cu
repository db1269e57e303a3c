// Survey propagation's rounds on the GPU: a thread per clause computes its
// new surveys (survey.h, the same arithmetic as the CPU reference) and
// multiplies each one's factor (1 - eta) into its variable's product for the
// next round (atomic), or stores it in the edge's own slot of its
// variable's list, for a thread per variable to multiply (gather). Two
// clauses of one variable meet on its product whenever they run at once,
// which is why a plain store there loses factors (docs/sp.md, "The GPU
// variants"); no two edges share a slot.
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
  __device__ void operator()(unsigned, unsigned v, bool negative, double f) {
    atomic_multiply(&(negative ? neg : pos)[v], f);
  }
};

// The gather variant's clause pass: each factor into its edge's slot of the
// variable's list (slot_of[e]: edge e's place in var_edges), a plain store;
// nothing where the products are gathered by edge (slot_factor null).
struct StoreInSlot {
  double *slot_factor;
  const unsigned *slot_of;
  __device__ void operator()(unsigned e, unsigned, bool, double f) {
    if (slot_factor)
      slot_factor[slot_of[e]] = f;
  }
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
                                 double *ratio, const unsigned *slot_of, double *slot_factor,
                                 double epsilon, double damping, int *moved) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= num_clauses || !clause_live[c])
    return;
  StoreInSlot contribute{slot_factor, slot_of};
  if (survey::update_clause(clause_offsets[c], clause_offsets[c + 1], edge_var, edge_negative,
                            edge_live, prod_pos, prod_neg, eta, eta_next, ratio, epsilon,
                            damping, contribute))
    flag_moved(moved);
}

__global__ void fill_slots(double *slot_factor, unsigned n) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n)
    slot_factor[k] = 1.0;
}

// One variable's products for the next round, in the CPU's order: its
// edges in increasing order, each factor multiplied into a product that
// starts at 1. Two ways to read the factors, the same bits:
//  - by slot (slot_factor set): the clause pass stored each factor in its
//    edge's slot, and the variable's slots lie side by side, so the reads
//    are contiguous. A dead edge's slot holds 1.0 (fill_slots; no clause
//    pass writes it), and x * 1.0 is x exactly, so multiplying by it is
//    skipping it;
//  - by edge: each factor from the edge's survey, through var_edges to
//    three scattered arrays. Where the slots do not fit in L2 the clause
//    pass's scattered 8-byte stores cost more than these reads (sp_gpu.cu).
static __device__ void gather_one(unsigned v, const GatherArgs &g, const double *eta,
                                  double *prod_pos, double *prod_neg) {
  double pos = 1.0, neg = 1.0;
  if (g.slot_factor) {
    for (unsigned k = g.var_offsets[v]; k < g.var_offsets[v + 1]; ++k) {
      const double f = g.slot_factor[k];
      if (g.slot_negative[k])
        neg *= f;
      else
        pos *= f;
    }
  } else {
    for (unsigned k = g.var_offsets[v]; k < g.var_offsets[v + 1]; ++k) {
      const unsigned e = g.var_edges[k];
      if (!g.edge_live[e])
        continue;
      if (g.edge_negative[e])
        neg *= survey::factor(eta[e]);
      else
        pos *= survey::factor(eta[e]);
    }
  }
  prod_pos[v] = pos;
  prod_neg[v] = neg;
}

__global__ void gather_products(unsigned num_vars, GatherArgs g, const double *eta,
                                double *prod_pos, double *prod_neg) {
  const unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < num_vars)
    gather_one(v, g, eta, prod_pos, prod_neg);
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
      if (Gather ? clause_round(a, c, cur, next, StoreInSlot{a.slot_factor, a.slot_of})
                 : clause_round(a, c, cur, next, AtomicMultiply{a.prod_pos[next], a.prod_neg[next]}))
        flag_moved(moved);
    }
    grid.sync();
    if (Gather) {
      for (unsigned v = first; v < a.num_vars; v += stride)
        gather_one(v, a.gather, a.eta[next], a.prod_pos[next], a.prod_neg[next]);
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
