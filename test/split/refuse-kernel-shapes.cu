// Kernels whose loop the split pass cannot rewrite as written, found by an
// adversarial round (2026-11-29): a local type or enumerator (the
// producer's copy of the index comes before its declaration; the
// enumerator crashed the tool), a streamed element bound to a non-const
// reference (a write no store names), a block-wide cooperative group's
// size, blockDim used whole, a comparison in unsigned arithmetic of a
// signed index that may be negative (in a guard: the passing threads are
// no prefix; in the loop condition: the trip count is not the loop's), and
// an overloaded kernel. Each was rewritten before, to output that gave
// other results or did not compile (the local type, the overloads). Each
// is refused with its reason; nothing is written.
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=split %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <cooperative_groups.h>
#include <dd/annotate.h>
namespace cg = cooperative_groups;

__global__ void local_type(const float *A, const float *x, float *y, int n) {
  typedef float T;
  T sum = 0.0f;
  const T *rowp = A + (long long)blockIdx.x * n;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the kernel declares the local type 'T', which the split kernel's producer warp would use before its declaration
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += rowp[j] * x[j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void ref_write(float *A, float *B, int dim, int num, int step) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the streamed array 'A' may be written through a non-const reference to its element, so the producer warp could copy stale data
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i += step) {
    float v = A[i * num + tid];
    float &next = A[(i + step) * num + tid];
    next = next + v;
    B[i * num + tid] = v;
  }
}

__global__ void block_size(const float *A, const float *x, float *y, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float partial[1024];
  float sum = 0.0f;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the kernel uses cooperative groups' 'size' on a group of the whole block or grid, whose sizes, ranks and collectives would count the producer warp
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j] * x[j];
  partial[threadIdx.x] = sum;
  block.sync();
  if (threadIdx.x == 0) {
    float t = 0;
    for (unsigned k = 0; k < block.size(); ++k)
      t += partial[k];
    y[blockIdx.x] = t;
  }
}

__global__ void whole_blockdim(const float *A, const float *x, float *y, int n) {
  __shared__ float partial[1024];
  float sum = 0.0f;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the kernel uses 'blockDim' whole, not by component: the split kernel's consumers would see the producer warp's threads in it
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j] * x[j];
  partial[threadIdx.x] = sum;
  __syncthreads();
  const dim3 bd = blockDim;
  if (threadIdx.x == 0) {
    float t = 0;
    for (unsigned k = 0; k < bd.x; ++k)
      t += partial[k];
    y[blockIdx.x] = t;
  }
}

__global__ void wraps(int nx, unsigned ny, int off, const float *A, float *y, const float *t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + off;
  if (j < ny) {
    float s = 0.0f;
    // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:5: error: cannot decouple this loop: the loop runs under the condition 'j < ny', which compares in unsigned arithmetic a signed value that may be negative: the threads that pass need not be a prefix of the block
    DD_PRAGMA(decouple)
    for (int i = 0; i < nx; ++i)
      s += A[i * ny + j] * t[i];
    y[j] = s;
  }
}

__global__ void wraps_loop(const float *A, float *y, unsigned n, int off) {
  float s = 0.0f;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the loop condition 'j < n' compares in unsigned arithmetic a signed value that may be negative: the trip count the split computes would not be the loop's
  DD_PRAGMA(decouple)
  for (int j = off + threadIdx.x; j < n; j += blockDim.x)
    s += A[(long long)blockIdx.x * n + j];
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A local enumerator in the index (the tool crashed on it before).
__global__ void local_enum(const float *__restrict__ A, float *__restrict__ B, int dim, int num) {
  enum { SHIFT = 0 };
  int tid = blockIdx.x * blockDim.x + threadIdx.x + SHIFT;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the kernel declares a local type, which the split kernel's producer warp would use before its declaration
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; ++i)
    B[i * num + tid] = A[i * num + tid] + 1;
}

// Overloaded kernels: the launcher's '(const void *)scale' would be ambiguous.
__global__ void scale(const float *__restrict__ A, float *__restrict__ B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the kernel 'scale' is overloaded: the launcher could not name it alone
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; ++i)
    B[i * num + tid] = 2 * A[i * num + tid];
}
__global__ void scale(const double *__restrict__ A, double *__restrict__ B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: refuse-kernel-shapes.cu:[[@LINE+2]]:3: error: cannot decouple this loop: the kernel 'scale' is overloaded: the launcher could not name it alone
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; ++i)
    B[i * num + tid] = 2 * A[i * num + tid];
}

void launch(const float *A, const float *x, float *y, float *B, int n) {
  local_type<<<64, 256>>>(A, x, y, n);
  ref_write<<<64, 256>>>(B, y, n, n, 1);
  block_size<<<64, 256>>>(A, x, y, n);
  whole_blockdim<<<64, 256>>>(A, x, y, n);
  wraps<<<64, 256>>>(n, n, -8, A, y, x);
  wraps_loop<<<64, 256>>>(A, y, n, -1);
  local_enum<<<64, 256>>>(A, B, n, n);
  scale<<<64, 256>>>(A, B, n, n);
}
