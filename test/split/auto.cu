// --split=auto plans unannotated loops too, every decision a remark under
// -Rdecoupler (nothing without it when nothing is rewritten); without the
// annotation's promise a store through another pointer may alias the
// stream, unless one is __restrict__ - and then nvcc pipelines the original
// itself (MLP 4): bandwidth-bound. An accepted loop is rewritten where the
// code generator can (rewrite-auto.cu); here the kernel has no launch.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --implicit-check-not=remark
// RUN: diff %s %t.dd.cu
// RUN: %decoupler --passes=split --split=auto %s -o %t.dd.cu 2>&1 | count 0
// RUN: %decoupler --passes=split %s -o %t.dd.cu 2>&1 | count 0

__global__ void fig33(const int *A, int *B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: auto.cu:[[@LINE+1]]:3: remark: --split=auto: not splitting this loop: the store 'B[i * num + tid] = A[i * num + tid] + 1' may alias the streamed array 'A' (no '#pragma dd decouple' promise, no __restrict__) [-Rdecoupler]
  for (int i = 0; i < dim; i++)
    B[i * num + tid] = A[i * num + tid] + 1;
}

__global__ void fig33_restrict(const int *__restrict__ A, int *__restrict__ B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: auto.cu:[[@LINE+1]]:3: remark: --split=auto: not splitting this loop: already bandwidth-bound: the original keeps 32 KiB in flight per SM (>= 24 KiB); predicted gain 0.90x is below 1.2x [-Rdecoupler]
  for (int i = 0; i < dim; i++)
    B[i * num + tid] = A[i * num + tid] + 1;
}

__global__ void csr(const int *rowptr, const float *vals, float *y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  // CHECK: auto.cu:[[@LINE+1]]:3: remark: --split=auto: loop not eligible: the initial value of 'k' is computed from a value loaded from memory ('rowptr[row]'){{.*}} [-Rdecoupler]
  for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
    sum += vals[k];
  y[row] = sum;
}

// No load at all: not a candidate, no remark.
__global__ void fill(int *B, int dim) {
  for (int i = 0; i < dim; i++)
    B[i * blockDim.x + threadIdx.x] = i;
}

// Accepted under auto: matvec's runtime step keeps nvcc from unrolling.
__global__ void matvec(const float *A, const float *x, float *y, int n) {
  float sum = 0.0f;
  // CHECK: auto.cu:[[@LINE+1]]:3: remark: --split=auto: split plan for loop: streams A[(long long)blockIdx.x * n + j] (one copy per stage) (4 KiB stages x depth 4, U=4), 16576 B shared memory per block for 256 threads (block size assumed); predicted 2.4x; profitable only for blocks of >= 32 iterations (to be checked at launch); the block size must be checked to be a multiple of 32 at launch; not rewritten: kernel 'matvec' has no host launch in this file to replace [-Rdecoupler]
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j] * x[j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
