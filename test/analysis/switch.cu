// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// A switch is a branch at its condition. On an affine value it is divergent:
// the value assigned in the cases is a divergent affine tuple (one condition,
// three tuples). On a scalar it is not: w picks tid or tid+1 uniformly.

__global__ void switch_kernel(int *out, int n) {
  int tid = threadIdx.x;
  int v;
  switch (tid) {
  case 0: v = 1; break;
  case 1: v = 2; break;
  default: v = 3; break;
  }
  out[v] = 0;
  int w;
  switch (n) {
  case 0: w = tid; break;
  default: w = tid + 1; break;
  }
  out[w] = 1;
}

// CHECK-LABEL: "name": "switch_kernel"
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}10, 11]]
// CHECK-DAG: {"line": 21, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 10, "column": 11, "class": "affine"
// CHECK-DAG: {"line": 17, "column": 11, "class": "scalar"
// CHECK-DAG: {"name": "v", "line": 9, "class": "affine"
// CHECK-DAG: {"name": "w", "line": 16, "class": "affine"{{.*}}"strides": [1, 0, 0]
// NEG-NOT: {"line": 21, "column": 3, {{.*}}divergent_conditions
