// An annotation must precede something it can apply to.
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu
#include <dd/annotate.h>

// CHECK: nothing-to-annotate.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' must precede a kernel (a __global__ function definition)
#pragma dd monotonic
__device__ void helper(int *a) { atomicMin(a, 1); }

// CHECK: nothing-to-annotate.cu:[[@LINE+1]]:12: error: '#pragma dd delegate' must precede the try-lock loop of a critical section
#pragma dd delegate
__global__ void k(int *a, int n) {
  int x = 0;
  // CHECK: nothing-to-annotate.cu:[[@LINE+1]]:14: error: '#pragma dd decouple' must precede a loop or a kernel (a __global__ function definition)
  #pragma dd decouple
  x = n * 2;
  // CHECK: nothing-to-annotate.cu:[[@LINE+1]]:14: error: '#pragma dd atomic' must precede a statement that calls a CUDA atomic function
  #pragma dd atomic(sr)
  a[0] = x;
  if (n > 0) {
    a[1] = 1;
    // An annotation that ends a block annotates nothing.
    // CHECK: nothing-to-annotate.cu:[[@LINE+1]]:5: error: '#pragma dd atomic' must precede a statement that calls a CUDA atomic function
    DD_PRAGMA(atomic(vr))
  }
  atomicAdd(a, 1);
  // CHECK: nothing-to-annotate.cu:[[@LINE+2]]:14: error: '#pragma dd decouple' given twice for the same target
  #pragma dd decouple
  #pragma dd decouple depth(2)
  for (int i = 0; i < n; ++i) a[i] = i;
  // CHECK: note: previous annotation is here
}
