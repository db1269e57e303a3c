// A 'goto' in a critical section is refused, with what it does: one that
// leaves the section, and one whose label is inside it (before, that one
// too was refused as "leaves by 'goto'"). Annotated, an error and no
// output; the original compiles.
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=delegate %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <dd/annotate.h>

__global__ void leave(int *sum, int *locks, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int b = keys[i] % 64;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      // CHECK: refuse-goto.cu:[[@LINE+1]]:23: error: cannot delegate this critical section: the critical section leaves by 'goto'
      if (sum[b] < 0) goto out;
      sum[b] += i;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
out:
  sum[64] = 1;
}

__global__ void within(int *sum, int *locks, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int b = keys[i] % 64;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      // CHECK: refuse-goto.cu:[[@LINE+1]]:23: error: cannot delegate this critical section: the critical section jumps with 'goto', which the delegate pass does not move
      if (i % 2 == 0) goto skip;
      sum[b] += i;
    skip:
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}
