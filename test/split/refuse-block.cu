// Refusal: a launch fixes the block at 100 threads, not a multiple of 32.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler --passes=split %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu

#include <dd/annotate.h>

__global__ void fig33(const int *A, int *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: refuse-block.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the kernel is launched with 100 threads per block, not a multiple of 32: the producer warp and the consumer warps need whole warps
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i++)
    B[i * num + tid] = A[i * num + tid] + 1;
}

void launch(const int *A, int *B, int dim, int num) {
  // CHECK: refuse-block.cu:[[@LINE+1]]:29: note: here
  fig33<<<(num + 99) / 100, 100>>>(A, B, dim, num);
}
