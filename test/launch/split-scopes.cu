// Launch rewriting (passes/support/LaunchRewriter.h) through the split
// pass, which keeps the kernel: lin::matvec, declared in a header with a
// default argument (Inputs/kernels.h) and defined after its first launches.
// Its launcher, declared before the function holding the first launch in
// namespace lin with the default, is the delegate pass's convention
// (dim3, dim3, size_t, cudaStream_t, parameters); the four <<<>>> forms
// pass their configuration as written and 0 for the rest; a
// using-declaration and a member function launch it; launches through a
// macro or in a template keep calling the kernel as written. The output
// compiles without a warning.
// RUN: %decoupler --no-line-directives --passes=split -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -I%S -c %t.cu -o %t.o
#include <dd/annotate.h>
#include "Inputs/kernels.h"

#define RUN_MATVEC(...) lin::matvec<<<1, 256>>>(__VA_ARGS__)

// CHECK: // decoupler: matvec's launches go through this (defined below).
// CHECK-NEXT: namespace lin { static void matvec_launch(dim3, dim3, size_t, cudaStream_t, const float *, const float *, float *, int, float = 1.0f); }
// CHECK-NEXT: void run(
void run(const float *A, const float *x, float *y, int rows, int n, size_t shm, cudaStream_t s) {
  // CHECK-NEXT: lin::matvec_launch(rows, 256, 0, 0, A, x, y, n);
  lin::matvec<<<rows, 256>>>(A, x, y, n);
  // CHECK-NEXT: lin::matvec_launch(rows, 256, shm, 0, A, x, y, n, 2.0f);
  lin::matvec<<<rows, 256, shm>>>(A, x, y, n, 2.0f);
  // CHECK-NEXT: lin::matvec_launch(dim3(rows), dim3(256), shm, s, A, x, y, n);
  lin::matvec<<<dim3(rows), dim3(256), shm, s>>>(A, x, y, n);
  // CHECK-NEXT: RUN_MATVEC(A, x, y, n);
  RUN_MATVEC(A, x, y, n);
}

// CHECK: lin::matvec<<<1, 256>>>(A, x, y, n);
template <typename T> void run_template(const T *A, const T *x, T *y, int n) {
  lin::matvec<<<1, 256>>>(A, x, y, n);
}
template void run_template<float>(const float *, const float *, float *, int);

struct Solver {
  const float *A, *x;
  float *y;
  int rows, n;
  // CHECK: using lin::matvec;
  // CHECK-NEXT: ::lin::matvec_launch(rows, 256, 0, 0, A, x, y, n, 0.5f);
  void step() {
    using lin::matvec;
    matvec<<<rows, 256>>>(A, x, y, n, 0.5f);
  }
};

namespace lin {
__global__ void matvec(const float *A, const float *x, float *y, int n, float alpha) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  float sum = 0.0f;
  // REMARK: split-scopes.cu:[[@LINE+2]]:3: remark: split plan for loop: {{.*}}; rewritten: matvec_split (one producer warp, 4 stages of 4 iterations) and matvec_launch for 5 launches; the launch at line 31 is written through a macro and keeps the original; the launch at line 36 is in a template (its instantiations may launch other kernels) and keeps the original [-Rdecoupler]
#pragma dd decouple
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum = __fmaf_rn(A[(long long)row * n + j], x[j], sum);
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
      y[row] = alpha * sum;
  }
}
// CHECK: static void matvec_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, const float *A, const float *x, float *y, int n, float alpha) {
// CHECK: matvec_split<<<dd_g, dd_b, dd_s, dd_st>>>(A, x, y, n, alpha);
// CHECK: matvec<<<dd_g, dd_b, dd_s, dd_st>>>(A, x, y, n, alpha);
} // namespace lin

// CHECK: void after(const float *A, const float *x, float *y, int rows, int n) { lin::matvec_launch(rows, 256, 0, 0, A, x, y, n); }
void after(const float *A, const float *x, float *y, int rows, int n) { lin::matvec<<<rows, 256>>>(A, x, y, n); }
