// Loops whose plans the cost model accepts (no rule 5) but whose shape the
// split code generator does not handle: each is declined with a remark
// (shown without -Rdecoupler too) and left as written, annotation included;
// the file comes out unchanged.
// RUN: %decoupler --passes=split %s -o %t.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.cu

#include <dd/annotate.h>

// A 2-D block.
__global__ void twod(const float *A, float *y, int n) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: the kernel reads threadIdx.y: the code generator handles 1-D blocks{{.*}}
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)row * n + j];
  if (threadIdx.y == 0)
    y[row * blockDim.x + threadIdx.x] = sum;
}

// __syncthreads() in a loop whose iterations differ per thread (j < n):
// a consumers' barrier there would be divergent (row tiles take it:
// rewrite-split.cu).
__global__ void syncin(const float *A, float *y, int n) {
  __shared__ float s[256];
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: __syncthreads() inside a loop whose iterations differ between threads: the consumers' barrier would be divergent{{.*}}
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    s[threadIdx.x] = A[(long long)row * n + j];
    __syncthreads();
    sum += s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  y[row * blockDim.x + threadIdx.x] = sum;
}

// A return before the loop.
__global__ void early(const float *A, float *y, int n, int rows) {
  const int row = blockIdx.x;
  if (row >= rows)
    return;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: a return before the end of the loop: every consumer warp must reach every stage{{.*}}
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)row * n + j];
  y[row * blockDim.x + threadIdx.x] = sum;
}

// The loop under two ifs (one if around the loop is split:
// test/split/guarded.cu).
__global__ void guarded(const float *A, float *y, int n, int rows) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  if (row < rows) {
    if (n > 0) {
      // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: the loop is neither a statement of the kernel body itself nor the guarded statement of an if there (it is under another loop, a pragma or nested ifs): the consumers must all reach it{{.*}}
      DD_PRAGMA(decouple)
      for (int j = threadIdx.x; j < n; j += blockDim.x)
        sum += A[(long long)row * n + j];
    }
  }
  y[row * blockDim.x + threadIdx.x] = sum;
}

// A strided gather: the block's elements are not one contiguous tile.
__global__ void tiles(const float *__restrict__ in, float *__restrict__ out, int dim, int num, int step) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: stream in[(long long)(i * num + tid) * 2] is not one contiguous tile of the block per iteration (a halo, a shared tile or a thread stride other than one element){{.*}}
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i += step)
    out[i * num + tid] = in[(long long)(i * num + tid) * 2];
}

// A start that is not threadIdx.x.
__global__ void strided(const float *A, float *y, int n) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: the induction variable does not start at threadIdx.x (+ a block-uniform value) nor at a value the same in every thread{{.*}}
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x * 1; j < n; j += blockDim.x)
    sum += A[(long long)row * n + j];
  y[row * blockDim.x + threadIdx.x] = sum;
}

// A break in the loop.
__global__ void brk(const float *A, float *y, int n) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: the loop body has a break{{.*}}
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    sum += A[(long long)row * n + j];
    if (n < 0)
      break;
  }
  y[row * blockDim.x + threadIdx.x] = sum;
}

__device__ void barrier() { __syncthreads(); }

// A function the kernel calls synchronizes the block.
__global__ void callee(const float *A, float *y, int n) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: 'barrier' uses __syncthreads() (the split block has one more warp, which leaves after the loop); only the kernel's own code is rewritten
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)row * n + j];
  barrier();
  y[row] = sum;
}

// Not launched in this file: nothing would run the split.
__global__ void unlaunched(const float *A, float *y, int n) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: kernel 'unlaunched' has no host launch in this file to replace
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)row * n + j];
  y[row] = sum;
}

// The stream read under a guard: the producer would read rows the loop as
// written never reads (row >= rows).
__global__ void guardload(const float *A, float *y, int n, int rows) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: stream A[(long long)row * n + j] is read under a condition in the loop; the producer would copy elements the loop as written may not read
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (row < rows)
      sum += A[(long long)row * n + j];
  y[row] = sum;
}

// A continue before the read.
__global__ void skip(const float *A, float *y, int n, int rows) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: rewrite-split-decline.cu:[[@LINE+2]]:{{[0-9]+}}: warning: loop not decoupled: split plan for loop: {{.*}}; not rewritten: stream A[(long long)row * n + j] is read under a condition in the loop; {{.*}}
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    if (row >= rows)
      continue;
    sum += A[(long long)row * n + j];
  }
  y[row] = sum;
}

void launch(const float *A, float *B, float *y, int rows, int n, int step) {
  twod<<<rows, dim3(32, 8)>>>(A, y, n);
  syncin<<<rows, 256>>>(A, y, n);
  early<<<rows, 256>>>(A, y, n, rows);
  guarded<<<rows, 256>>>(A, y, n, rows);
  tiles<<<n / 256, 256>>>(A, B, rows, n, step);
  strided<<<rows, 256>>>(A, y, n);
  brk<<<rows, 256>>>(A, y, n);
  callee<<<rows, 256>>>(A, y, n);
  guardload<<<rows, 256>>>(A, y, n, rows);
  skip<<<rows, 256>>>(A, y, n, rows);
}
