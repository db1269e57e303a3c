// The delegate rewrite cuts the critical section, its message and its
// server out of the host compilation's view of the kernel. Where the device
// compilation is other code (here the device branch also counts, through a
// parameter the host view never reads), the outlined section would name a
// variable it was not given: an annotated section is refused with the reason
// and nothing is written; under --delegate=auto an unannotated one is left
// as written with a warning.
// RUN: rm -f %t.cu
// RUN: not %decoupler --no-line-directives %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// RUN: %decoupler --no-line-directives --delegate=auto %s -o %t2.cu -- -DNO_PRAGMA 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: cmp %s %t2.cu
#include <dd/annotate.h>

struct Node {
  unsigned key;
  int next;
};

__global__ void insert(const unsigned *keys, int n, int *heads, Node *pool,
                       int *locks, int buckets, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned key = keys[i];
  int b = key % buckets;
  bool done = false;
#ifndef NO_PRAGMA
  // CHECK: refuse-device-view.cu:[[@LINE+5]]:3: error: cannot delegate this critical section: kernel 'insert' is not the same code when compiled for the device (sm_90) as in the host compilation decoupler analyses (from line [[@LINE+11]]: a preprocessor condition on __CUDA_ARCH__, or a macro defined under one)
  // CHECK: refuse-device-view.cu:[[@LINE+10]]:7: note: the device compilation differs from here
#pragma dd delegate
#endif
  // AUTO: refuse-device-view.cu:[[@LINE+1]]:3: warning: --delegate=auto: try-lock loop not delegated: kernel 'insert' is not the same code when compiled for the device (sm_90)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      pool[i].key = key;
      pool[i].next = heads[b];
      heads[b] = i;
#ifdef __CUDA_ARCH__
      count[b] += 1;
#endif
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

void run(const unsigned *keys, int n, int *heads, Node *pool, int *locks,
         int buckets, int *count) {
  insert<<<(n + 255) / 256, 256>>>(keys, n, heads, pool, locks, buckets,
                                   count);
}
