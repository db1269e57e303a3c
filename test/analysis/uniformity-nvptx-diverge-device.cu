// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/diverge.ll, @device.
// Deliberate difference: LLVM conservatively treats all parameters of a
// __device__ function as divergent; this analysis is context-sensitive
// (docs/analysis.md), so the same function is scalar when called with scalar
// arguments and divergent when called with an affine one.

__device__ int device_fn(int n, int a, int b) {
  int c;
  if (n < 0)
    c = a;
  else
    c = b;
  return c;
}

__global__ void uniform_caller(int *out, int n, int a, int b) {
  out[device_fn(n, a, b)] = 0;
}

__global__ void divergent_caller(int *out, int a, int b) {
  out[device_fn((int)threadIdx.x - 16, a, b)] = 0;
}

// CHECK-LABEL: "name": "uniform_caller"
// CHECK-DAG: {"line": 18, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 10, "column": 7, "class": "scalar"{{.*}}"function": "device_fn"
// CHECK-DAG: {"name": "n", "line": 8, "class": "scalar"{{.*}}"function": "device_fn"
// CHECK-DAG: {"name": "c", "line": 9, "class": "scalar"{{.*}}"function": "device_fn"
// CHECK-LABEL: "name": "divergent_caller"
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}10, 7]]
// CHECK-DAG: {"line": 10, "column": 7, "class": "affine"{{.*}}"function": "device_fn"
// CHECK-DAG: {"name": "n", "line": 8, "class": "affine"{{.*}}"function": "device_fn"
// CHECK-DAG: {"name": "c", "line": 9, "class": "affine"{{.*}}"function": "device_fn"
