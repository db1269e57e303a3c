// Refusal: the loop's trip count reads a parameter, or a local, that the
// kernel changes through a reference before the loop (a __device__ helper
// taking `int &`, a local `int &` alias). The producer warp would run the
// loop control on the unchanged value.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler --passes=split %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu

#include <dd/annotate.h>

__device__ void clamp_to(int &n, int most) {
  if (n > most)
    n = most;
}

__global__ void row_sum(const float *A, float *y, int n) {
  clamp_to(n, 4096);
  float sum = 0.0f;
  // CHECK: refuse-changed-by-reference.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the trip count is not block-uniform: the loop condition is nonaffine
  // CHECK: refuse-changed-by-reference.cu:[[@LINE+2]]:29: note: here
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void row_sum_local(const float *A, float *y, int n) {
  int cols = n;
  int &alias = cols;
  alias /= 2;
  float sum = 0.0f;
  // CHECK: refuse-changed-by-reference.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the trip count is not block-uniform: the loop condition is nonaffine
  // CHECK: refuse-changed-by-reference.cu:[[@LINE+2]]:29: note: here
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < cols; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void run(const float *A, float *y, int n) {
  row_sum<<<n, 256>>>(A, y, n);
  row_sum_local<<<n, 256>>>(A, y, n);
}
