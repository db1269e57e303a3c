// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Declarations without an initializer: the class comes from the assignments
// that follow. Assigned on both sides of a divergent branch, the value is a
// divergent affine tuple.

__global__ void uninitialized(int *out, int n) {
  int tid = threadIdx.x;
  int x;
  x = n * 2;
  out[x] = 0;
  int y;
  if (tid < n)
    y = 1;
  else
    y = 2;
  out[y] = 1;
  int z;
  z = tid;
  out[z] = 2;
}

// CHECK-LABEL: "name": "uninitialized"
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 19, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"name": "x", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "y", "line": 11, "class": "affine"{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"name": "z", "line": 17, "class": "affine"{{.*}}"strides": [1, 0, 0]
