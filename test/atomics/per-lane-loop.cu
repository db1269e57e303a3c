// An atomic inside a loop whose condition each lane evaluates on its own
// data (the analysis's NonAffine: a walk of each lane's row of a CSR graph)
// stays as written. Lanes leave such a loop at different iterations, so the
// vote mostly runs on part of a warp, and different lanes' rows seldom meet
// on one word: Indigo's pull-style SSSP and CC ran 0.61-0.78x of as written
// through dd::atomic_min_vr on Kronecker graphs, 0.89-0.96x on road networks
// (H200; docs/corpus.md, "ECL and Indigo2, checked and run on the GPU").
// So does one in a loop that a per-lane bound on its counter ends early
// (Tigr's BC kernel: 0.93-1.00x of as written through the vote on five
// graphs, H200; docs/corpus.md, "Graph frameworks and four more codes").
// Loops whose trip count is the same in every lane (grid-stride walks: a
// histogram) are combined as before, as is an atomic after the loop, or one
// in a loop that bad data ends early; `atomic(vr)` forces the vote.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <dd/annotate.h>

// Indigo's pull-style relaxation: a thread per worklist vertex walks its row.
__global__ void pull(const int *nindex, const int *nlist, const int *wl, int wlsize, const int *dist,
                     int *dist_n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < wlsize) {
    const int v = wl[idx];
    const int beg = nindex[v];
    const int end = nindex[v + 1];
    int d = dist[v];
    for (int i = beg; i < end; i++) {
      const int src = nlist[i];
      const int s = dist[src];
      if (s + 1 < d)
        d = s + 1;
      // CHECK: per-lane-loop.cu:[[@LINE+2]]:7: remark: atomicMin left unchanged: the loop on line [[@LINE-5]] runs a trip count of each lane's own, so the lanes that reach it together are seldom a whole warp or on one word (atomic(vr) forces the vote) [-Rdecoupler]
      // OUT: {{^}}      atomicMin(&dist_n[src], s);
      atomicMin(&dist_n[src], s);
    }
    // After the loop: every lane of the warp again, combined as before.
    // CHECK: per-lane-loop.cu:[[@LINE+2]]:5: remark: atomicMin -> dd::atomic_min_vr: nonaffine address
    // OUT: {{^}}    dd::atomic_min_vr(&dist_n[v], d);
    atomicMin(&dist_n[v], d);
  }
}

// A warp per vertex, its lanes striding the row; a while loop; a loop of
// fixed trip count inside a row walk. (The kernels below read their arrays
// besides the atomics, which keeps them from privatization.)
__global__ void shapes(const int *nindex, const int *nlist, const int *wl, unsigned *hits, int *next) {
  const int idx = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int v = wl[idx];
  if (hits[v] == 7u)
    return;
  for (int i = nindex[v] + threadIdx.x % 32; i < nindex[v + 1]; i += 32)
    // CHECK: per-lane-loop.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the loop on line [[@LINE-1]] runs a trip count of each lane's own
    atomicAdd(&hits[nlist[i]], 1u);
  int u = v;
  while (u >= 0) {
    // CHECK: per-lane-loop.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the loop on line [[@LINE-1]] runs a trip count of each lane's own
    atomicAdd(&hits[u], 2u);
    u = next[u];
  }
  for (int i = nindex[v]; i < nindex[v + 1]; ++i)
    for (int k = 0; k < 4; ++k)
      // CHECK: per-lane-loop.cu:[[@LINE+1]]:7: remark: atomicAdd left unchanged: the loop on line [[@LINE-2]] runs a trip count of each lane's own
      atomicAdd(&hits[nlist[i] + k], 1u);
}

// A grid-stride histogram: the same trip count in every lane (but the
// last), gathered words that collide: the vote as before.
__global__ void histogram(const int *keys, unsigned *bins, int n) {
  if (bins[0] == 7u)
    return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    // CHECK: per-lane-loop.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
    // OUT: {{^}}    dd::atomic_add_vr(&bins[keys[i]], 1u);
    atomicAdd(&bins[keys[i]], 1u);
}

// Forced by the annotation.
__global__ void forced(const int *nindex, const int *nlist, const int *wl, unsigned *hits) {
  const int v = wl[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = nindex[v]; i < nindex[v + 1]; ++i) {
    // CHECK: per-lane-loop.cu:[[@LINE+3]]:5: remark: atomicAdd -> dd::atomic_add_vr: annotated atomic(vr)
    // OUT: {{^}}    dd::atomic_add_vr(&hits[nlist[i]], 1u);
    DD_PRAGMA(atomic(vr))
    atomicAdd(&hits[nlist[i]], 1u);
  }
}

// A loop with no condition of its own that a break or return on each lane's
// data ends: its trip count is each lane's own too (a walk up each lane's
// chain of parents; a search that stops at a lane's own key). A break of an
// inner switch, or on a value every lane shares, decides no trip count: the
// vote as before.
__global__ void exits(const int *parent, const int *keys, unsigned *hits, int key, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (hits[v] == 7u)
    return;
  int u = v;
  for (;;) {
    // CHECK: per-lane-loop.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the loop on line [[@LINE-1]] runs a trip count of each lane's own (it ends at the condition on line [[@LINE+3]])
    atomicAdd(&hits[u], 1u);
    const int p = parent[u];
    if (p == u)
      break;
    u = p;
  }
  int i = v;
  while (true) {
    // CHECK: per-lane-loop.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the loop on line [[@LINE-1]] runs a trip count of each lane's own (it ends at the condition on line [[@LINE+2]])
    atomicAdd(&hits[keys[i]], 2u);
    if (keys[i] == key)
      return;
    i = (i + 1) % n;
  }
}

__global__ void uniform_exits(const int *keys, unsigned *hits, int n) {
  if (hits[0] == 7u)
    return;
  int round = 0;
  for (;;) {
    // CHECK: per-lane-loop.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
    // OUT: {{^}}    dd::atomic_add_vr(&hits[keys[blockIdx.x * blockDim.x + threadIdx.x + round]], 1u);
    atomicAdd(&hits[keys[blockIdx.x * blockDim.x + threadIdx.x + round]], 1u);
    switch (keys[round]) {
    case 0:
      break; // the switch's
    default:
      ++round;
    }
    if (++round >= n)
      break;
  }
}

// A loop of fixed trip count that each lane's own bound on its counter ends
// early: Tigr's virtual nodes (a thread per part of a vertex, at most 8 of
// its edges). The bound is the trip count, however it is spelled.
__global__ void bounded(const unsigned *rows, const unsigned *edges, const unsigned *dist, unsigned *sigma,
                        int level) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned part = id % 4, degree = edges[rows[id]], parts = (degree + 7) / 8;
  for (int i = 0; i < 8; i++) {
    if (part + i * parts >= degree)
      break;
    const unsigned end = rows[id] + part + i * parts + 1;
    if (dist[edges[end]] == level + 1)
      // CHECK: per-lane-loop.cu:[[@LINE+2]]:7: remark: atomicAdd left unchanged: the loop on line [[@LINE-5]] runs a trip count of each lane's own (it ends at the condition on line [[@LINE-4]])
      // OUT: {{^}}      atomicAdd(&sigma[edges[end]], sigma[id]);
      atomicAdd(&sigma[edges[end]], sigma[id]);
  }
  // An early exit on bad data before the bound: the bound still decides.
  for (int i = 0; i < 8; i++) {
    if (dist[id] == 0u)
      break;
    if (part + i * parts >= degree)
      break;
    // CHECK: per-lane-loop.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the loop on line [[@LINE-5]] runs a trip count of each lane's own (it ends at the condition on line [[@LINE-2]])
    atomicAdd(&sigma[edges[rows[id] + part + i * parts + 1]], 1u);
  }
  // The same bound in a while loop whose body steps its counter.
  int k = 0;
  while (k < 8) {
    if (k * parts + part >= degree)
      return;
    // CHECK: per-lane-loop.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the loop on line [[@LINE-3]] runs a trip count of each lane's own (it ends at the condition on line [[@LINE-2]])
    atomicAdd(&sigma[edges[rows[id] + k]], 1u);
    ++k;
  }
}

// Early exits on bad data: the lane's own value (no counter), the data at the
// counter (a sentinel key). The loops' trip counts are their conditions': the
// vote as before.
__global__ void bad_data(const int *keys, unsigned *bins, int n) {
  if (bins[0] == 7u)
    return;
  const int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  for (int i = 0; i < 4; ++i) {
    if (k < 0)
      break;
    // CHECK: per-lane-loop.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
    // OUT: {{^}}    dd::atomic_add_vr(&bins[k + i], 1u);
    atomicAdd(&bins[k + i], 1u);
  }
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (keys[i] < 0)
      break;
    // CHECK: per-lane-loop.cu:[[@LINE+2]]:5: remark: atomicAdd -> dd::atomic_add_vr: nonaffine address
    // OUT: {{^}}    dd::atomic_add_vr(&bins[keys[i]], 1u);
    atomicAdd(&bins[keys[i]], 1u);
  }
}
