// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Beyond two divergent conditions a value is nonaffine (§3.3.4: "at most two
// divergent conditions (or four tuples) can affect an affine operand").

__global__ void three_conditions(int *a, int n, int m, int k) {
  int tid = threadIdx.x;
  int off = 0;
  if (tid < n)
    off = 1;
  if (tid > m)
    off = off + 2;
  a[off + 100] = 1;
  if (tid == k)
    off = off + 4;
  a[off] = 0;
}

// CHECK-LABEL: "name": "three_conditions"
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "off", "line": 7, "class": "nonaffine"
