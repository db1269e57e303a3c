// Refusal: the ring does not fit in 227 KiB / 7 per block: depth(16) of
// 4 KiB stages (caret at the annotation), or the kernel's own shared memory
// leaves no room for the ring.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler --passes=split %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu

#include <dd/annotate.h>

__global__ void deep(const float *A, float *y, int n) {
  float sum = 0.0f;
  // CHECK: refuse-shared.cu:[[@LINE+3]]:3: error: cannot decouple this loop: the shared memory would not fit: 66304 bytes per block (ring of depth 16, U=4) exceed 227 KiB / 7 = 33206 bytes
  // CHECK: refuse-shared.cu:[[@LINE+1]]:3: note: here
  DD_PRAGMA(decouple depth(16))
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void big_tile(const float *A, float *y, int n) {
  __shared__ float tile[7000];
  float sum = 0.0f;
  // CHECK: refuse-shared.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the shared memory would not fit: {{[0-9]+}} bytes per block (ring of depth 2, U=4) exceed 227 KiB / 7 = 33206 bytes
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    tile[threadIdx.x] = A[(long long)blockIdx.x * n + j];
    sum += tile[threadIdx.x];
  }
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
