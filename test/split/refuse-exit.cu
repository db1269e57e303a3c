// Refusal: the loop leaves early on a loaded value (a data-dependent exit):
// the producer cannot know how many iterations to stream.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler --passes=split %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu

#include <dd/annotate.h>

__global__ void until_negative(const int *A, int *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: refuse-exit.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the loop has a data-dependent exit: this 'break' depends on a value loaded from memory ('A[i * num + tid]')
  // CHECK: refuse-exit.cu:[[@LINE+5]]:7: note: here
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i++) {
    int v = A[i * num + tid];
    if (v < 0)
      break;
    B[i * num + tid] = v;
  }
}
