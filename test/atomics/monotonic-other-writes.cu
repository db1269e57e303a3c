// '#pragma dd monotonic' states that the words the kernel's atomicMin/Max
// update only move one way while it runs; the filtered atomic and the
// guarded store are exact only then. The pass checks what it can see: any
// other write through the atomic's base variable or a local pointer made
// from it (an assignment, an increment, another kind of atomic, the pointer
// passed to a function that takes it as non-const) leaves the atomic as
// written, with a warning naming that write. Reads, a const parameter, more
// atomics of the same kind and writes to other arrays do not. Writes are
// found by what the code does, not how it is spelled: an object made from a
// word (cuda::atomic_ref) writes it, and so does a non-const member function
// called on the array's elements, or on an object whose pointers it may
// write through.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: grep -v '^ *//' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <cuda/atomic>
#include <dd/annotate.h>

__device__ void reset(unsigned *p) { *p = ~0u; }
__device__ unsigned peek(const unsigned *p) { return *p; }

DD_PRAGMA(monotonic)
__global__ void mixed(unsigned *dist, unsigned *label, unsigned *level,
                      unsigned *q, unsigned *r, unsigned *flags, unsigned v) {
  unsigned i = threadIdx.x;
  // DIAG: monotonic-other-writes.cu:[[@LINE+5]]:3: warning: atomicMin left as written: the kernel also writes 'dist' by an assignment '=', so its words may not move one way as '#pragma dd monotonic' states [-Wdecoupler-declined]
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:11: note: the other write is here
  // DIAG: monotonic-other-writes.cu:23:1: note: the kernel is annotated '#pragma dd monotonic' here
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

// cuda::atomic_ref: the object a word is bound to writes the word.
DD_PRAGMA(monotonic)
__global__ void atomicRefs(unsigned *dist, unsigned *level, unsigned *best,
                           unsigned v) {
  unsigned i = threadIdx.x;
  // DIAG: monotonic-other-writes.cu:[[@LINE+4]]:3: warning: atomicMin left as written: the kernel also passes 'dist' to a constructor of 'atomic_ref', which may write it
  // DIAG: monotonic-other-writes.cu:[[@LINE+2]]:3: note: the other write is here
  // OUT: atomicMin(&dist[i + 1], v);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(dist[i]).store(~0u, cuda::std::memory_order_relaxed);
  atomicMin(&dist[i + 1], v);
  // A named one, written later by the other direction.
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMin left as written: the kernel also passes 'level' to a constructor of 'atomic_ref'
  // OUT: atomicMin(&level[i + 3], v);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> r(level[i]);
  atomicMin(&level[i + 3], v);
  r.fetch_max(v);
  // Only read through one: the filtered atomic.
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: remark: atomicMin -> dd::atomic_min_filtered
  // OUT: dd::atomic_min_filtered(best, v);
  v += cuda::atomic_ref<const unsigned, cuda::thread_scope_device>(best[1]).load(cuda::std::memory_order_relaxed);
  atomicMin(best, v);
}

struct Cell {
  unsigned v;
  __device__ void set(unsigned x) { v = x; }
  __device__ unsigned get() const { return v; }
};
struct Pair {
  unsigned a, b;
  __device__ Pair &operator=(unsigned x) {
    a = b = x;
    return *this;
  }
};
struct Queue {
  unsigned *items;
  unsigned *size;
  __device__ void push(unsigned x) { items[atomicAdd(size, 1u)] = x; }
};

// Member functions write the object they are called on; a const one only
// reads it.
DD_PRAGMA(monotonic)
__global__ void members(Cell *c, Pair *p, const Cell *ro, unsigned v) {
  unsigned i = threadIdx.x;
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMin left as written: the kernel also calls 'set' on 'c', which may write it
  // OUT: atomicMin(&c[i + 1].v, v);
  c[i].set(7);
  atomicMin(&c[i + 1].v, v);
  // A member operator's object is its first argument.
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMax left as written: the kernel also calls 'operator=' on 'p', which may write it
  // OUT: atomicMax(&p[i + 1].a, v);
  p[i] = 3u;
  atomicMax(&p[i + 1].a, v);
  v += ro[i].get();
}

// A worklist push writes through the pointers the worklist holds, which may
// point anywhere.
DD_PRAGMA(monotonic)
__global__ void pushes(Queue q, unsigned *dist, const Cell *ro, unsigned v) {
  unsigned i = threadIdx.x;
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMin left as written: the kernel also calls 'push' on 'q', which may write 'dist' through the pointers the object holds
  // OUT: atomicMin(&dist[i], v + ro[i].get());
  q.push(i);
  atomicMin(&dist[i], v + ro[i].get());
}

// Inline assembly that stores, through a pointer operand based on the
// atomic's array, or through an address in an integer register (which may
// be anywhere), writes its words; assembly that only orders memory does
// not. Before (found by an adversarial round, 2026-11-29), the first two
// became guarded plain writes in a monotonic(store) kernel.
DD_PRAGMA(monotonic(store))
__global__ void asm_store(int *dist, const int *next, int v) {
  int i = next[threadIdx.x];
  // DIAG: monotonic-other-writes.cu:[[@LINE+3]]:3: warning: atomicMin left as written: the kernel also writes 'dist' by inline assembly that stores, so its words may not move one way
  // DIAG: monotonic-other-writes.cu:[[@LINE+4]]:5: note: the other write is here
  // OUT: atomicMin(&dist[i], v);
  atomicMin(&dist[i], v);
  if (v < 0)
    asm volatile("st.global.u32 [%0], %1;" ::"l"(&dist[i]), "r"(1000000)
                 : "memory");
}

DD_PRAGMA(monotonic(store))
__global__ void asm_store_integer(int *dist, const int *next, int v,
                                  unsigned long long where) {
  int i = next[threadIdx.x];
  // DIAG: monotonic-other-writes.cu:[[@LINE+2]]:3: warning: atomicMin left as written: the kernel also writes 'dist' by inline assembly that stores
  // OUT: atomicMin(&dist[i], v);
  atomicMin(&dist[i], v);
  asm volatile("st.global.u32 [%0], %1;" ::"l"(where), "r"(0) : "memory");
}

DD_PRAGMA(monotonic(store))
__global__ void asm_fence(int *dist, const int *next, int v) {
  int i = next[threadIdx.x];
  // DIAG: monotonic-other-writes.cu:[[@LINE+2]]:3: remark: atomicMin -> dd::monotonic_min
  // OUT: dd::monotonic_min(&dist[i], v);
  atomicMin(&dist[i], v);
  asm volatile("membar.gl;" ::: "memory");
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
