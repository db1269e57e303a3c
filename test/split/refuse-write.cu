// Refusal: the streamed array is written in the loop (in place), so a
// prefetched tile could be stale.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler --passes=split %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu

#include <dd/annotate.h>

__global__ void increment(int *A, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: refuse-write.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the streamed array 'A' may be written in the loop, so the producer warp could copy stale data
  // CHECK: refuse-write.cu:[[@LINE+3]]:5: note: here
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i++)
    A[i * num + tid] = A[i * num + tid] + 1;
}
