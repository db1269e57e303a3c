// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// An access in a compound assignment or a postfix increment is reported twice,
// as a load and a store at the same position (loads first).

__global__ void compound(int *a, float *f, int n) {
  int tid = threadIdx.x;
  a[tid] += 1;
  a[n] *= 2;
  f[2 * tid] -= 1.0f;
  a[tid + 32]++;
  a[tid % 8] |= 4;
  a[n + 1]--;
}

// CHECK-LABEL: "name": "compound"
// CHECK: {"line": 7, "column": 3, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-NEXT: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-NEXT: {"line": 8, "column": 3, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-NEXT: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-NEXT: {"line": 9, "column": 3, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-NEXT: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-NEXT: {"line": 10, "column": 3, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-NEXT: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-NEXT: {"line": 11, "column": 3, "kind": "load", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-NEXT: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-NEXT: {"line": 12, "column": 3, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-NEXT: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
