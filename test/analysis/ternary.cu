// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// c ? a : b with a non-scalar condition builds a divergent affine tuple; with
// a scalar condition all threads pick the same side, so tid vs tid+1 is one
// affine tuple with stride 1. ?: conditions are branches.

__global__ void ternary(int *a, int n) {
  int tid = threadIdx.x;
  int x = tid < n ? tid : n;
  a[x] = 0;
  int y = n > 0 ? tid : tid + 1;
  a[y] = 1;
  a[tid < 16 ? 0 : 2 * tid] = 2;
  int z = n > 0 ? 1 : 2;
}

// CHECK-LABEL: "name": "ternary"
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 11]]
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}13, 5]]
// CHECK-DAG: {"line": 9, "column": 11, "class": "affine"
// CHECK-DAG: {"line": 11, "column": 11, "class": "scalar"
// CHECK-DAG: {"line": 13, "column": 5, "class": "affine"
// CHECK-DAG: {"line": 14, "column": 11, "class": "scalar"
// CHECK-DAG: {"name": "x", "line": 9, "class": "affine"
// CHECK-DAG: {"name": "y", "line": 11, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-DAG: {"name": "z", "line": 14, "class": "scalar"
// NEG-NOT: {"line": 12, "column": 3, {{.*}}divergent_conditions
// NEG-NOT: {"name": "y", {{.*}}divergent_conditions
