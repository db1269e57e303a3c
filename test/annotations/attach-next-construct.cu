// An annotation attaches to the construct that immediately follows it,
// whatever that is, never to a later one: before a prototype, a variable, a
// type or a namespace it annotates nothing and is an error with a note at
// what follows (issue 13: `monotonic` before a prototype used to turn
// another kernel's atomicMax into monotonic_max, `decouple` before a
// declaration put __restrict__ on the next kernel's aliasing arrays).
// RUN: rm -f %t.dd.cu
// RUN: not %decoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.dd.cu
#include <dd/annotate.h>

// A prototype, then another kernel's definition.
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' must precede a kernel (a __global__ function definition)
#pragma dd monotonic
__global__ void relax(int *dist, int n);
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: the annotation is followed by a declaration of kernel 'relax' that is not its definition
__global__ void flag(int *m, int v) { atomicMax(m, v); }

// The same through DD_PRAGMA: the caret is at the macro's use.
// CHECK: attach-next-construct.cu:[[@LINE+1]]:1: error: '#pragma dd decouple' must precede a loop or a kernel (a __global__ function definition)
DD_PRAGMA(decouple)
__global__ void scale(float *out, const float *in, int n);
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: the annotation is followed by a declaration of kernel 'scale' that is not its definition
__global__ void shift(float *a, float *b, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    a[i] = b[i + 1];
}

// A variable declaration.
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' must precede a kernel
#pragma dd monotonic
__device__ int counter;
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: the annotation is followed by the declaration of variable 'counter'
__global__ void bump(int *m) { atomicMax(m, counter); }

// A __device__ function is no kernel.
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' must precede a kernel
#pragma dd monotonic
__device__ void helper(int *a) { atomicMin(a, 1); }
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: the annotation is followed by the definition of __device__ function 'helper'

// A type alias and a struct.
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: error: '#pragma dd decouple' must precede a loop or a kernel
#pragma dd decouple depth(2)
typedef float real;
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: the annotation is followed by the type alias 'real'
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' must precede a kernel
#pragma dd monotonic
struct Edge { int src, dst; };
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: the annotation is followed by struct 'Edge'
__global__ void edges(Edge *e, int *m) { atomicMax(m, e[threadIdx.x].dst); }

// A namespace, and the end of one.
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' must precede a kernel
#pragma dd monotonic
namespace graph {
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: the annotation is followed by namespace 'graph'
__global__ void relax_all(int *d) { atomicMin(d, 0); }
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: error: '#pragma dd monotonic' must precede a kernel
#pragma dd monotonic
}
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: nothing follows the annotation before the end of its scope
__global__ void after_namespace(int *d) { atomicMin(d, 0); }

// In a body: a declaration statement, then the atomic.
__global__ void body(int *a, int n) {
  // CHECK: attach-next-construct.cu:[[@LINE+1]]:14: error: '#pragma dd atomic' must precede a statement that calls a CUDA atomic function
  #pragma dd atomic(vr)
  int v = n * 2;
  // CHECK: attach-next-construct.cu:[[@LINE-1]]:3: note: the annotation is followed by a declaration statement
  atomicAdd(a, v);
  // CHECK: attach-next-construct.cu:[[@LINE+1]]:14: error: '#pragma dd delegate' must precede the try-lock loop of a critical section
  #pragma dd delegate
}
// CHECK: attach-next-construct.cu:[[@LINE-1]]:1: note: nothing follows the annotation before the end of its scope

// At the end of the file.
// CHECK: attach-next-construct.cu:[[@LINE+2]]:12: error: '#pragma dd monotonic' must precede a kernel
// CHECK: attach-next-construct.cu:[[@LINE+1]]:12: note: nothing follows the annotation in this file
#pragma dd monotonic
