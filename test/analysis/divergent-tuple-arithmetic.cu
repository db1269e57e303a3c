// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Arithmetic on a divergent tuple applies per tuple (affine, stride_bytes null):
// c is scalar in each tuple (n, n + 1), so c * tid is the pair (n * tid,
// (n + 1) * tid); only a product varying within one tuple is not affine.

__global__ void tuple_arithmetic(int *a, int n) {
  int tid = threadIdx.x;
  int c = n;
  if (tid < 32)
    c = n + 1;
  a[c * 4 + tid] = 0;
  a[c * tid] = 1;
  a[c - 7] = 2;
}

// CHECK-LABEL: "name": "tuple_arithmetic"
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
// CHECK-DAG: {"name": "c", "line": 8, "class": "affine"{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
