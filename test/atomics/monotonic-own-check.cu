// In a monotonic kernel, an atomicMin/atomicMax that its own check already
// skips where the word is at or past the value (`if (v < M) atomicMin(&M,
// v)`) stays as written, with a warning: the filter would only load the word
// a second time (0.89x on wiki-Vote's SSSP, docs/PERF.md). The check is
// recognized by what it compares, written in any order, with <, <=, > or >=,
// through `&M`, `*p`, `p[0]` or `p[i]` for `p + i`, as one conjunct of an
// &&; anything else (a different word or value, the wrong direction, the
// else branch, a loop in between, a disjunction) gets the filtered atomic.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

struct Node {
  unsigned dist;
};

DD_PRAGMA(monotonic)
__global__ void relax(unsigned *dist, const unsigned *dst, unsigned nd,
                      unsigned *p, unsigned *top, Node *nodes, int *level,
                      int q) {
  unsigned i = threadIdx.x;
  // DIAG: monotonic-own-check.cu:[[@LINE+3]]:28: warning: atomicMin left as written: the check on line [[@LINE+3]] already skips it where the word is past the value; a filter would load the word again [-Wdecoupler-declined]
  // DIAG: monotonic-own-check.cu:19:1: note: the kernel is annotated '#pragma dd monotonic' here
  // OUT: if (nd < dist[dst[i]]) { atomicMin(&dist[dst[i]], nd); }
  if (nd < dist[dst[i]]) { atomicMin(&dist[dst[i]], nd); }
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:26: warning: atomicMin left as written
  // OUT: if (dist[dst[i]] > nd) atomicMin(&dist[dst[i]], nd);
  if (dist[dst[i]] > nd) atomicMin(&dist[dst[i]], nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:26: warning: atomicMin left as written
  // OUT: if (i > 3 && nd <= *p) atomicMin(p, nd);
  if (i > 3 && nd <= *p) atomicMin(p, nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:18: warning: atomicMin left as written
  // OUT: if (nd < p[0]) atomicMin(p, nd);
  if (nd < p[0]) atomicMin(p, nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:27: warning: atomicMin left as written
  // OUT: if (nd < nodes[i].dist) atomicMin(&nodes[i].dist, nd);
  if (nd < nodes[i].dist) atomicMin(&nodes[i].dist, nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:18: warning: atomicMax left as written
  // OUT: if (*top < nd) atomicMax(top, nd);
  if (*top < nd) atomicMax(top, nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:24: warning: atomicMax left as written
  // OUT: if (q >= level[i]) { atomicMax(&level[i], q); }
  if (q >= level[i]) { atomicMax(&level[i], q); }
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:26: warning: atomicMin left as written
  // OUT: if (dist[dst[i]] > nd) atomicMin(dist + dst[i], nd);
  if (dist[dst[i]] > nd) atomicMin(dist + dst[i], nd);

  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:26: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: if (nd < dist[dst[i]]) dd::atomic_min_filtered(&dist[dst[i] + 1], nd);
  if (nd < dist[dst[i]]) atomicMin(&dist[dst[i] + 1], nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:25: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: if (nd + 1 < dist[i]) dd::atomic_min_filtered(&dist[i], nd);
  if (nd + 1 < dist[i]) atomicMin(&dist[i], nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:21: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: if (nd > dist[i]) dd::atomic_min_filtered(&dist[i], nd);
  if (nd > dist[i]) atomicMin(&dist[i], nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:29: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: if (nd < dist[i]) {} else dd::atomic_min_filtered(&dist[i], nd);
  if (nd < dist[i]) {} else atomicMin(&dist[i], nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:26: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: if (nd < dist[i] || i) dd::atomic_min_filtered(&dist[i], nd);
  if (nd < dist[i] || i) atomicMin(&dist[i], nd);
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:44: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: if (nd < *p) for (int j = 0; j < 2; ++j) dd::atomic_min_filtered(p, nd);
  if (nd < *p) for (int j = 0; j < 2; ++j) atomicMin(p, nd);
  // A check of a value with a side effect is no check of the value.
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:23: remark: atomicMax -> dd::atomic_max_filtered
  // OUT: if (level[i++] < q) dd::atomic_max_filtered(&level[i++], q);
  if (level[i++] < q) atomicMax(&level[i++], q);
}

// monotonic(store) asks for the guarded plain store even under a check.
DD_PRAGMA(monotonic(store))
__global__ void relax_stores(unsigned *dist, const unsigned *dst, unsigned nd) {
  unsigned i = threadIdx.x;
  // DIAG: monotonic-own-check.cu:[[@LINE+2]]:26: remark: atomicMin -> dd::monotonic_min: in a monotonic(store) kernel
  // OUT: if (nd < dist[dst[i]]) dd::monotonic_min(&dist[dst[i]], nd);
  if (nd < dist[dst[i]]) atomicMin(&dist[dst[i]], nd);
}
