// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// min and max are treated as a < b ? a : b: a non-scalar comparison selects
// between tuples (a divergent affine tuple), scalar operands give a scalar,
// a nonaffine operand a nonaffine value.

__global__ void min_max(int *a, int n, int m) {
  int tid = threadIdx.x;
  a[min(tid, n)] = 0;
  a[max(n, m)] = 1;
  a[max(tid, 0) + 64] = 2;
  int lo = min(a[tid], n);
  a[lo] = 3;
  int c = min(n, 64);
}

// CHECK-LABEL: "name": "min_max"
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions"
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions"
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "lo", "line": 11, "class": "nonaffine"
// CHECK-DAG: {"name": "c", "line": 13, "class": "scalar"
