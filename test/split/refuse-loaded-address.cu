// Refusal: a streamed load's address is computed from a value loaded in the
// loop (a per-iteration offset table), so the slice depends on a load.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler --passes=split %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu

#include <dd/annotate.h>

__global__ void segments(const float *A, const int *offsets, float *out, int dim) {
  float sum = 0.0f;
  // CHECK: refuse-loaded-address.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the address of 'A[blockIdx.x * 4096 + off + threadIdx.x]' is computed from a value loaded from memory ('offsets[i]'); the producer warp cannot run ahead of it
  // CHECK: refuse-loaded-address.cu:[[@LINE+3]]:21: note: here
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; ++i) {
    const int off = offsets[i];
    sum += A[blockIdx.x * 4096 + off + threadIdx.x];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
