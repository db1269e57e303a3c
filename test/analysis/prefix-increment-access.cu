// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A prefix increment/decrement of an array element is a load and a store of
// the element; the position is that of the accessed expression a[...], not of
// the operator.

__global__ void prefix_increment(int *a, int n) {
  ++a[threadIdx.x];
  --a[n];
}

// CHECK-LABEL: "name": "prefix_increment"
// CHECK: {"line": 7, "column": 5, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-NEXT: {"line": 7, "column": 5, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-NEXT: {"line": 8, "column": 5, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-NEXT: {"line": 8, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
