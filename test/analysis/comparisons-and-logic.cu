// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Comparisons, !, && and || are scalar of scalar operands, affine (a predicate
// DAC can expand from affine tuples) of scalar/affine operands and nonaffine
// otherwise. The branch position is where the condition begins.

__global__ void comparisons(int *a, int n, int m) {
  int tid = threadIdx.x;
  if (n > 0) a[0] = 0;
  if (tid < n) a[1] = 1;
  if (tid < n && n > 4) a[2] = 2;
  if (!(tid == 0)) a[3] = 3;
  if (n > 0 || m > 0) a[4] = 4;
  if (a[tid] > 0) a[5] = 5;
  if (tid * tid < n) a[6] = 6;
  bool p = tid < n;
  bool q = n != m;
  if (p) a[7] = 7;
  if (!q) a[8] = 8;
}

// CHECK-LABEL: "name": "comparisons"
// CHECK-DAG: {"line": 13, "column": 7, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 8, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 9, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 10, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 11, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 12, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 13, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"line": 14, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"line": 17, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 18, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "p", "line": 15, "class": "affine"
// CHECK-DAG: {"name": "q", "line": 16, "class": "scalar"
