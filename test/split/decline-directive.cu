// The split kernel is the kernel's text copied in pieces around the edits:
// a preprocessor directive in the kernel's body (an #if/#else/#endif around
// the loop's statement, or before the loop) could land in one piece and its
// partner in another, and the output would not compile ("#else without
// #if"). Such a kernel is declined with a warning and left as written; the
// output compiles under either branch.
// RUN: %decoupler --passes=split %s -o %t.cu 2>&1 | FileCheck %s
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// RUN: %nvcc -Werror all-warnings -DUSE_FMA -c %t.cu -o %t.o

#include <dd/annotate.h>

// OUT-NOT: matvec_split
// OUT-NOT: reduce_split
__global__ void matvec(const float *A, const float *x, float *y, int n) {
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: decline-directive.cu:[[@LINE+2]]:3: warning: loop not decoupled: {{.*}}not rewritten: the kernel's body holds a preprocessor directive: the split kernel copies the body's text in pieces [-Wdecoupler-declined]
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
  // CHECK: decline-directive.cu:[[@LINE+1]]:1: note: here
#ifdef USE_FMA
    sum = __fmaf_rn(A[(long long)row * n + j], x[j], sum);
#else
    sum += A[(long long)row * n + j] * x[j];
#endif
  atomicAdd(&y[row], sum);
}

__global__ void reduce(const float *A, float *y, int n) {
  const int row = blockIdx.x;
#if defined(USE_FMA)
  float sum = -0.0f;
#else
  float sum = 0.0f;
#endif
  // CHECK: decline-directive.cu:[[@LINE+2]]:3: warning: loop not decoupled: {{.*}}the kernel's body holds a preprocessor directive
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)row * n + j];
  atomicAdd(&y[row], sum);
}

void run(const float *A, const float *x, float *y, int n, int rows) {
  matvec<<<rows, 256>>>(A, x, y, n);
  reduce<<<rows, 256>>>(A, y, n);
}
