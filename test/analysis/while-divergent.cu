// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A while loop whose condition depends on threadIdx: threads leave it after
// different numbers of iterations. Inside, k is scalar; after the loop k is
// nonaffine (temporal divergence), and so is the variable.

__global__ void while_divergent(int *out) {
  int tid = threadIdx.x;
  int k = 0;
  while (k < tid) {
    out[k] = 0;
    k += 2;
  }
  out[k] = 1;
}

// CHECK-LABEL: "name": "while_divergent"
// CHECK-DAG: {"line": 10, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 9, "column": 10, "class": "affine"
// CHECK-DAG: {"name": "k", "line": 8, "class": "nonaffine"
