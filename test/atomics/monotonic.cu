// In a kernel annotated monotonic, atomicMin/atomicMax whose result is unused
// become filtered atomics (a load skips the atomic where the word is already
// past the value: exact, no update lost); annotated monotonic(store), the
// papers' guarded plain writes; elsewhere they are ordinary atomics.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// The test's own comments are in the output: drop them before checking.
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// The output compiles with nvcc for sm_90.
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

__device__ void relax_in_helper(int *d, int v) {
  // Not lexically in the monotonic kernel: an ordinary aggregated atomic.
  // REMARK: monotonic.cu:[[@LINE+2]]:3: remark: atomicMin -> dd::atomic_min_vr
  // OUT: dd::atomic_min_vr(d, v);
  atomicMin(d, v);
}

DD_PRAGMA(monotonic)
__global__ void bellman_ford(int *dist, const int *src, const int *dst,
                             const int *w, int m, int *changed, int *other) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m)
    return;
  int nd = dist[src[e]] + w[e];
  // REMARK: monotonic.cu:[[@LINE+2]]:3: remark: atomicMin -> dd::atomic_min_filtered: in a monotonic kernel: skipped where the word is already past the value [-Rdecoupler]
  // OUT: dd::atomic_min_filtered(&dist[dst[e]], nd);
  atomicMin(&dist[dst[e]], nd);
  // REMARK: monotonic.cu:[[@LINE+2]]:3: remark: atomicMax -> dd::atomic_max_filtered
  // OUT: dd::atomic_max_filtered(changed, 1);
  atomicMax(changed, 1);
  // A used result stays an atomic even here.
  // REMARK: monotonic.cu:[[@LINE+1]]:11: remark: atomicMin left unchanged: its result is used
  int o = atomicMin(&dist[0], nd);
  relax_in_helper(&other[o & 3], nd);
  // An explicit variant wins over monotonic.
  // REMARK: monotonic.cu:[[@LINE+3]]:3: remark: atomicMin -> dd::atomic_min_sr: annotated atomic(sr)
  // OUT: dd::atomic_min_sr(&dist[dst[e]], nd + 1);
  DD_PRAGMA(atomic(sr))
  atomicMin(&dist[dst[e]], nd + 1);
}

// The papers' plain monotonic writes, on request: they may lose updates, so
// the kernel must be a fixed point the host re-runs (here: until no change).
DD_PRAGMA(monotonic(store))
__global__ void bellman_ford_stores(unsigned long long *dist, const int *src,
                                    const int *dst, const unsigned *w, int m,
                                    int *changed) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m)
    return;
  unsigned long long nd = dist[src[e]] + w[e];
  // REMARK: monotonic.cu:[[@LINE+2]]:3: remark: atomicMin -> dd::monotonic_min: in a monotonic(store) kernel: a guarded plain write [-Rdecoupler]
  // OUT: dd::monotonic_min(&dist[dst[e]], nd);
  atomicMin(&dist[dst[e]], nd);
  // REMARK: monotonic.cu:[[@LINE+2]]:3: remark: atomicMax -> dd::monotonic_max: in a monotonic(store) kernel
  // OUT: dd::monotonic_max(changed, 1);
  atomicMax(changed, 1);
}

// monotonic(filter) is the default, written out.
#pragma dd monotonic(filter)
__global__ void labels(unsigned *label, const unsigned *nbr, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n)
    // REMARK: monotonic.cu:[[@LINE+2]]:5: remark: atomicMin -> dd::atomic_min_filtered
    // OUT: dd::atomic_min_filtered(&label[nbr[v]], label[v]);
    atomicMin(&label[nbr[v]], label[v]);
}

__global__ void not_monotonic(int *dist, const int *dst, int m) {
  // REMARK: monotonic.cu:[[@LINE+2]]:3: remark: atomicMin -> dd::atomic_min_vr
  // OUT: dd::atomic_min_vr(&dist[dst[threadIdx.x]], m);
  atomicMin(&dist[dst[threadIdx.x]], m);
}
