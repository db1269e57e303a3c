// '#pragma dd monotonic' states that the words the kernel's atomicMin/Max
// update only move one way while it runs; the filtered atomic and the
// guarded store are exact only then. The pass checks what it can see: any
// other write through the atomic's base variable or a local pointer made
// from it (an assignment, an increment, another kind of atomic, the pointer
// passed to a function that takes it as non-const) leaves the atomic as
// written, with a warning naming that write. Reads, a const parameter, more
// atomics of the same kind and writes to other arrays do not.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

__device__ void reset(unsigned *p) { *p = ~0u; }
__device__ unsigned peek(const unsigned *p) { return *p; }

DD_PRAGMA(monotonic)
__global__ void mixed(unsigned *dist, unsigned *label, unsigned *level,
                      unsigned *q, unsigned *r, unsigned *flags, unsigned v) {
  unsigned i = threadIdx.x;
  // DIAG: monotonic-other-writes.cu:[[@LINE+5]]:3: warning: atomicMin left as written: the kernel also writes 'dist' by an assignment '=', so its words may not move one way as '#pragma dd monotonic' states [-Wdecoupler-declined]
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:11: note: the other write is here
  // DIAG: monotonic-other-writes.cu:18:1: note: the kernel is annotated '#pragma dd monotonic' here
  // OUT: atomicMin(&dist[i + 1], v);
  dist[i] = 0;
  atomicMin(&dist[i + 1], v);
  // Through a local pointer made from the array.
  // DIAG: monotonic-other-writes.cu:[[@LINE+4]]:3: warning: atomicMin left as written: the kernel also writes 'label' by an increment
  // OUT: atomicMin(&label[i], v);
  unsigned *alias = label + 4;
  alias[i]++;
  atomicMin(&label[i], v);
  // Both directions on one array: neither is monotonic.
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMax left as written: the kernel also writes 'level' by atomicMin
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMin left as written: the kernel also writes 'level' by atomicMax
  // OUT: atomicMax(&level[i], v);
  atomicMax(&level[i], v);
  atomicMin(&level[i], v);
  // DIAG: monotonic-other-writes.cu:[[@LINE+2]]:3: warning: atomicMin left as written: the kernel also passes 'q' to 'reset', which may write it
  reset(q);
  atomicMin(q, v);
  // A read through a const parameter and two atomicMin on one array: the
  // filtered atomic.
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: dd::atomic_min_filtered(r, v);
  v += peek(r);
  atomicMin(r, v);
  // DIAG: monotonic-other-writes.cu:[[@LINE+2]]:3: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: dd::atomic_min_filtered(r + 1, v);
  atomicMin(r + 1, v);
  flags[i] = 1;
}

// Through a reference to one of the words, through a pointer read from
// memory, which may point anywhere (MemoryRoots: its origin is unknown), and
// a variable stored by its name.
DD_PRAGMA(monotonic)
__global__ void through(unsigned *dist, unsigned *level, unsigned **tables,
                        unsigned v) {
  unsigned &first = dist[0];
  first = 0;
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMin left as written: the kernel also writes 'dist' by an assignment '='
  // DIAG: monotonic-other-writes.cu:[[@LINE-2]]:9: note: the other write is here
  // OUT: atomicMin(&dist[threadIdx.x], v);
  atomicMin(&dist[threadIdx.x], v);
  unsigned *table = tables[blockIdx.x];
  table[threadIdx.x] = 1;
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMax left as written: the kernel also writes 'level' by an assignment '='
  // DIAG: monotonic-other-writes.cu:[[@LINE-2]]:22: note: the other write is here
  // OUT: atomicMax(&level[threadIdx.x], v);
  atomicMax(&level[threadIdx.x], v);
  // A variable of its own, stored by name.
  __shared__ unsigned best;
  best = ~0u;
  // DIAG: monotonic-other-writes.cu:[[@LINE+2]]:3: warning: atomicMin left as written: the kernel also writes 'best' by an assignment '='
  // OUT: atomicMin(&best, v);
  atomicMin(&best, v);
}

// A template kernel: each instantiation's body is searched as instantiated.
template <class T>
DD_PRAGMA(monotonic)
__global__ void templated(T *dist, const int *next, T v) {
  // DIAG: monotonic-other-writes.cu:[[@LINE+2]]:3: warning: atomicMin left as written: the kernel also writes 'dist' by an assignment '='
  // OUT: atomicMin(&dist[next[threadIdx.x]], v);
  atomicMin(&dist[next[threadIdx.x]], v);
  dist[0] = v;
}
template __global__ void templated<int>(int *, const int *, int);

