// GNU statement expressions in a decoupled loop: the streamed load inside
// one is replaced by the stage's element like any other (the consumers'
// copy keeps the statement expression), and a break inside one is the
// data-dependent exit it is. The output compiles without a warning.
// RUN: %decoupler --passes=split %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: not %decoupler --passes=split %s -o %t.exit.cu -- -DEXIT 2>&1 | FileCheck %s --check-prefix=EXIT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <dd/annotate.h>

__global__ void matvec(const float *A, const float *x, float *y, int n) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  float sum = 0.0f;
#pragma dd decouple
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum = ({ float a = A[(long long)row * n + j]; __fmaf_rn(a, x[j], sum); });
  for (int o = 16; o > 0; o /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (threadIdx.x == 0)
      y[row] = sum;
  }
}
#ifdef EXIT
__global__ void exits(const float *A, const float *x, float *y, int n) {
  float sum = 0.0f;
  // EXIT: rewrite-statement-expr.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the loop has a data-dependent exit: this 'break' depends on a value loaded from memory ('x[j]')
#pragma dd decouple
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j] * ({ if (x[j] < 0) break; x[j]; });
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
void launch_exits(const float *A, const float *x, float *y, int n) { exits<<<1, 256>>>(A, x, y, n); }
#endif

// CHECK: __global__ void __launch_bounds__(288) matvec_split(const float *A, const float *x, float *y, int n) {
// CHECK: dd::copy_tile_async(dd_stages[dd_c.slot].s0, &(A[(long long)row * n + j]), 0, dd_count, dd_ring.full(dd_c));
// CHECK: sum = ({ float a = dd_s0[dd_u]; __fmaf_rn(a, x[j], sum); });

// CHECK: matvec_launch(rows, 256, 0, 0, A, x, y, n);
void launch(const float *A, const float *x, float *y, int rows, int n) {
  matvec<<<rows, 256>>>(A, x, y, n);
}
