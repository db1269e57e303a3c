// What immediately follows an annotation may be written in several ways:
// a kernel template (the annotation precedes `template`), a kernel in
// `extern "C"` without braces, a kernel inside a namespace or an
// `extern "C" {}` block, a kernel with a `static` or a macro first, a loop
// behind a label.
// RUN: %decoupler --analyze --report=json %s | FileCheck %s
#include <dd/annotate.h>
#define KERNEL __global__

// CHECK: "annotations": [
// CHECK-NEXT: {"directive": "monotonic", "line": [[@LINE+1]], "column": 12, "function": "", "target": "kernel", "target_line": [[@LINE+3]]
#pragma dd monotonic
template <typename T>
__global__ void relax_t(T *d, T v) { atomicMin(d, v); }

// CHECK-NEXT: {"directive": "monotonic", "line": [[@LINE+1]], "column": 12, "function": "", "target": "kernel", "target_line": [[@LINE+2]]
#pragma dd monotonic
extern "C" __global__ void relax_c(int *d, int v) { atomicMin(d, v); }

namespace graph {
// CHECK-NEXT: {"directive": "monotonic", "line": [[@LINE+1]], "column": 12, "function": "", "target": "kernel", "target_line": [[@LINE+2]]
#pragma dd monotonic
__global__ void relax_ns(int *d, int v) { atomicMin(d, v); }
} // namespace graph

extern "C" {
// CHECK-NEXT: {"directive": "monotonic", "line": [[@LINE+1]], "column": 12, "function": "", "target": "kernel", "target_line": [[@LINE+2]]
#pragma dd monotonic
KERNEL void relax_block(int *d, int v) { atomicMin(d, v); }
}

// CHECK-NEXT: {"directive": "decouple", "line": [[@LINE+1]], "column": 1, "function": "", "target": "kernel", "target_line": [[@LINE+2]]
DD_PRAGMA(decouple)
static __global__ void copy(float *out, const float *in, int n) {
  // CHECK-NEXT: {"directive": "decouple", "line": [[@LINE+1]], "column": 14, "function": "copy", "target": "loop", "target_line": [[@LINE+2]]
  #pragma dd decouple
  again:
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = in[i];
  if (n < 0)
    goto again;
}
// CHECK-NEXT: ]
