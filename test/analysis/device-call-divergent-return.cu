// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A callee that returns from both sides of a divergent branch returns a
// divergent affine tuple selected by the callee's condition; called with
// scalar arguments the same callee is scalar throughout.

__device__ int clamp_index(int i, int n) {
  if (i < n)
    return i;
  return n - 1;
}

__global__ void divergent_return(int *a, int n) {
  a[clamp_index(threadIdx.x, n)] = 0;
}

__global__ void uniform_return(int *a, int n) {
  a[clamp_index(blockIdx.x, n)] = 0;
}

// CHECK-LABEL: "name": "divergent_return"
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}7, 7]]
// CHECK-DAG: {"line": 7, "column": 7, "class": "affine"{{.*}}"function": "clamp_index"
// CHECK-LABEL: "name": "uniform_return"
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 7, "column": 7, "class": "scalar"{{.*}}"function": "clamp_index"
