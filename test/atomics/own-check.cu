// Without an annotation, an atomicMin/atomicMax at a data-dependent address
// that its own check already skips where the word is at or past the value
// (`if (v < M) atomicMin(&M, v)`, SSSP's relaxation as LonestarGPU writes it)
// stays as written, with a remark: only lanes that change the word reach it,
// and combining them measured 0.94-1.01x (docs/PERF.md). The check is the one
// `#pragma dd monotonic` recognizes (monotonic-own-check.cu), plus `p[i]` for
// an address written `p + i`. A scalar address still gets the warp
// reduction; a min/max without its own check still gets the vote.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=remark:
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

struct Graph {
  unsigned *node_data;
  const unsigned *dst;
  const unsigned *wt;
};

// A relaxed load of the word through a function (ECL's atomicRead).
__device__ int peek(const int *p) { return *(volatile const int *)p; }

__global__ void relax(Graph graph, const unsigned *src, unsigned m, long long *best,
                      int *dist, const int *to, int *changed) {
  const unsigned e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m)
    return;
  const unsigned node = src[e], dst = graph.dst[e], wt = graph.wt[e];
  // LonestarGPU's sssp.cu: the word read as p[i], the address written p + i.
  // DIAG: own-check.cu:[[@LINE+2]]:5: remark: atomicMin left unchanged: the check on line [[@LINE+1]] lets only lanes that change the word reach it, too few together to gain from combining (atomic(vr) forces it) [-Rdecoupler]
  if (graph.node_data[dst] > graph.node_data[node] + wt) {
    atomicMin(graph.node_data + dst, graph.node_data[node] + wt);
    *changed = 1;
  }
  // OUT: atomicMin(graph.node_data + dst, graph.node_data[node] + wt);
  const int nd = static_cast<int>(wt);
  // DIAG: own-check.cu:[[@LINE+2]]:25: remark: atomicMax left unchanged: the check on line [[@LINE+2]]
  // OUT: if (dist[to[e]] < nd) atomicMax(&dist[to[e]], nd);
  if (dist[to[e]] < nd) atomicMax(&dist[to[e]], nd);
  // DIAG: own-check.cu:[[@LINE+2]]:29: remark: atomicMin left unchanged: the check on line [[@LINE+2]]
  // OUT: if (nd < *(dist + to[e])) atomicMin(dist + to[e], nd);
  if (nd < *(dist + to[e])) atomicMin(dist + to[e], nd);
  // DIAG: own-check.cu:[[@LINE+2]]:31: remark: atomicMin left unchanged: the check on line [[@LINE+2]]
  // OUT: if (nd < (dist + to[e])[0]) atomicMin(dist + to[e], nd);
  if (nd < (dist + to[e])[0]) atomicMin(dist + to[e], nd);
  // ECL-MST's: the address cast to a pointer type of the word's size (a
  // cast to another size names a wider or narrower word: not the check's).
  const unsigned long long v = wt;
  // DIAG: own-check.cu:[[@LINE+2]]:24: remark: atomicMin left unchanged: the check on line [[@LINE+2]]
  // OUT: if (best[to[e]] > v) atomicMin((unsigned long long *)&best[to[e]], v);
  if (best[to[e]] > v) atomicMin((unsigned long long *)&best[to[e]], v);
  // DIAG: own-check.cu:[[@LINE+2]]:25: remark: atomicMax -> dd::atomic_max_vr: nonaffine address
  // OUT: if (best[to[e]] < nd) dd::atomic_max_vr((unsigned *)&best[to[e]], (unsigned)nd);
  if (best[to[e]] < nd) atomicMax((unsigned *)&best[to[e]], (unsigned)nd);
  // DIAG: own-check.cu:[[@LINE+2]]:32: remark: atomicMin left unchanged: the check on line [[@LINE+2]]
  // OUT: if (nd < peek(&dist[to[e]])) atomicMin(&dist[to[e]], nd);
  if (nd < peek(&dist[to[e]])) atomicMin(&dist[to[e]], nd);
  // Not their own checks: another word, the wrong direction.
  // DIAG: own-check.cu:[[@LINE+2]]:25: remark: atomicMin -> dd::atomic_min_vr: nonaffine address
  // OUT: if (nd < dist[e + 1]) dd::atomic_min_vr(&dist[to[e]], nd);
  if (nd < dist[e + 1]) atomicMin(&dist[to[e]], nd);
  // DIAG: own-check.cu:[[@LINE+2]]:25: remark: atomicMin -> dd::atomic_min_vr: nonaffine address
  // OUT: if (nd > dist[to[e]]) dd::atomic_min_vr(&dist[to[e]], nd);
  if (nd > dist[to[e]]) atomicMin(&dist[to[e]], nd);
  // A scalar address: one reduction per warp pays, check or not (for a
  // 64-bit word, which nvcc does not combine itself).
  // DIAG: own-check.cu:[[@LINE+2]]:19: remark: atomicMin -> dd::atomic_min_uniform: scalar address
  // OUT: if (nd < *best) dd::atomic_min_uniform(best, (long long)nd);
  if (nd < *best) atomicMin(best, (long long)nd);
}
