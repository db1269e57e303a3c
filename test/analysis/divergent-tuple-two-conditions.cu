// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A value may depend on at most two divergent conditions (four tuples) and
// still be affine: sequential and nested divergent branches. The order of the
// divergent_conditions list is not specified, so either order is accepted.

__global__ void two_sequential(int *a, int n, int m) {
  int tid = threadIdx.x;
  int off = 0;
  if (tid < n)
    off = tid;
  if (tid > m)
    off = off + 32;
  a[off] = 0;
}

__global__ void two_nested(int *a, int n, int m) {
  int tid = threadIdx.x;
  int v = 0;
  if (tid < n) {
    if (tid < m)
      v = 1;
    else
      v = tid;
  }
  a[v] = 0;
}

// CHECK-LABEL: "name": "two_sequential"
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[9, 7\], \[11, 7\]\]|\[\[11, 7\], \[9, 7\]\]}}
// CHECK-DAG: {"name": "off", "line": 8, "class": "affine"
// CHECK-LABEL: "name": "two_nested"
// CHECK-DAG: {"line": 25, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[19, 7\], \[20, 9\]\]|\[\[20, 9\], \[19, 7\]\]}}
// CHECK-DAG: {"name": "v", "line": 18, "class": "affine"
