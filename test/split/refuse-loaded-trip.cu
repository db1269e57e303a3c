// Refusal: the trip count comes from memory (CSR row bounds), so the
// producer warp cannot run the loop control ahead of the consumers.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler --passes=split %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu

#include <dd/annotate.h>

__global__ void spmv_csr(const int *rowptr, const int *cols, const float *vals, const float *x,
                         float *y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    // CHECK: refuse-loaded-trip.cu:[[@LINE+3]]:5: error: cannot decouple this loop: the initial value of 'k' is computed from a value loaded from memory ('rowptr[row]'); the producer warp cannot run ahead of it
    // CHECK: refuse-loaded-trip.cu:[[@LINE+2]]:18: note: here
    DD_PRAGMA(decouple)
    for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
      sum += vals[k] * x[cols[k]];
    y[row] = sum;
  }
}
