// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// +, - and unary - of scalar/affine operands are affine; strides add up and
// may be negative.

__global__ void add_sub_neg(int *a, int n) {
  int tid = threadIdx.x;
  a[tid + n] = 0;
  a[n - tid] = 1;
  a[-tid + 1024] = 2;
  a[tid + tid] = 3;
  a[(tid + 1) + (tid - n) + tid] = 4;
  int up = tid + 5;
  int down = n - tid;
}

// CHECK-LABEL: "name": "add_sub_neg"
// CHECK-DAG: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": -4{{.*}}"strides_bytes": [-4, 0, 0]
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": -4
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 12
// CHECK-DAG: {"name": "up", "line": 12, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-DAG: {"name": "down", "line": 13, "class": "affine"{{.*}}"strides": [-1, 0, 0]
