// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// tid << 2 is tid * 4: stride 4, i.e. 16 bytes on an int array. `<<` is affine
// only when the shift amount is scalar; a constant amount keeps the stride
// exact, a scalar unknown one makes it unknown. `>>` of a non-scalar operand is
// not affine.

__global__ void shift_left(int *a, int n) {
  int tid = threadIdx.x;
  a[tid << 2] = 0;
  a[(tid << 1) + 1] = 1;
  a[tid << n] = 2;
  a[n << tid] = 3;
  a[tid >> 1] = 4;
  a[n >> 2] = 5;
  int s = tid << 2;
}

// CHECK-LABEL: "name": "shift_left"
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16{{.*}}"strides_bytes": [16, 0, 0]
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "s", "line": 15, "class": "affine"{{.*}}"strides": [4, 0, 0]
