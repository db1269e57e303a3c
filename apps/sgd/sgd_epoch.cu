// One epoch of matrix-factorization SGD on a rating graph, Kaleem et al.'s
// edge-lock version (the dissertation's SGD, ch. 4.5): a thread per rating
// edge (user u, item i, value r) takes the user's lock and then the item's
// (two nested global try-locks, Listing 4.3) and, holding both, computes the
// error from the current latent vectors and updates both vectors of length k.
// Every rating's update is serialized with every other update of its user and
// of its item, so an epoch equals a sequential pass over the ratings in some
// order (docs/sgd.md). Counters per rating, per user and per item record
// the updates that ran (plain increments under the locks: a lost one shows
// a break of mutual exclusion).
//
// Built twice (apps/sgd/CMakeLists.txt): as written into dd::sgd::locks and,
// rewritten at build time by `decoupler --passes=delegate`, into
// dd::sgd::delegate, where the critical section runs on server blocks.
#include <cstddef>

#include <dd/annotate.h>

#include "sgd/kernel.h"

#ifndef DD_SGD_VARIANT
#error "DD_SGD_VARIANT (locks or delegate) names the namespace of this build"
#endif

namespace dd::sgd::DD_SGD_VARIANT {

__global__ void sgd_epoch(const unsigned *users, const unsigned *items, const float *values,
                          unsigned n, float *user_vecs, float *item_vecs, unsigned k, float lr,
                          float lambda, unsigned *updates, unsigned *user_updates,
                          unsigned *item_updates, int *user_locks, int *item_locks) {
  const unsigned e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n)
    return;
  const unsigned u = users[e], i = items[e];
  const float r = values[e];
  // The user's lock first, then the item's: every thread takes them in this
  // order, so no two threads wait on each other in a cycle.
  bool s1 = false, s2 = false;
  DD_PRAGMA(delegate)
  do {
    if (!s1) {
      if (atomicCAS(&user_locks[u], 0, 1) == 0)
        s1 = true;
    }
    if (s1) {
      if (atomicCAS(&item_locks[i], 0, 1) == 0) {
        __threadfence(); // acquire: the previous holders' updates are visible
        float *p = user_vecs + static_cast<size_t>(u) * k;
        float *q = item_vecs + static_cast<size_t>(i) * k;
        float err = r;
        for (unsigned j = 0; j < k; ++j)
          err -= p[j] * q[j];
        for (unsigned j = 0; j < k; ++j) {
          const float pj = p[j], qj = q[j];
          p[j] = pj + lr * (err * qj - lambda * pj);
          q[j] = qj + lr * (err * pj - lambda * qj);
        }
        updates[e] += 1;
        user_updates[u] += 1;
        item_updates[i] += 1;
        __threadfence(); // release: the updates before the unlocks
        atomicExch(&item_locks[i], 0);
        atomicExch(&user_locks[u], 0);
        s2 = true;
      }
    }
  } while (!(s1 && s2));
}

cudaError_t run_epochs(const DeviceProblem &p, float lr, float lambda, unsigned epochs) {
  const unsigned block = 256;
  const unsigned grid = (p.n + block - 1) / block;
  if (p.n == 0)
    return cudaSuccess;
  for (unsigned epoch = 0; epoch < epochs; ++epoch) {
    sgd_epoch<<<grid, block>>>(p.users, p.items, p.values, p.n, p.user_vecs, p.item_vecs, p.k,
                               lr, lambda, p.updates, p.user_updates, p.item_updates, p.user_locks,
                               p.item_locks);
    if (const cudaError_t err = cudaGetLastError(); err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

} // namespace dd::sgd::DD_SGD_VARIANT
