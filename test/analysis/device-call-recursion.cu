// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Recursion is cut at depth 8 and reported nonaffine, even for scalar
// arguments.

__device__ int depth(int x) {
  if (x <= 0)
    return 0;
  return depth(x - 1) + 1;
}

__global__ void recursion(int *a, int n) {
  int d = depth(n);
  a[d] = 0;
}

// CHECK-LABEL: "name": "recursion"
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "d", "line": 12, "class": "nonaffine"
