// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// for, while and do-while loops with scalar conditions, nested: every counter
// and every address built from them is scalar, also after the loops (their
// exits are uniform).

__global__ void scalar_loops(int *a, int n, int m) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i * m + j] = 0;
  int k = 0;
  while (k < n) {
    a[k] = 1;
    k += 2;
  }
  a[k] = 2;
  int d = n;
  do {
    a[d] = 3;
    d--;
  } while (d > 0);
  a[d] = 4;
}

// CHECK-LABEL: "name": "scalar_loops"
// CHECK-DAG: {"line": 9, "column": 7, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 12, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 18, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 21, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 7, "column": 19, "class": "scalar"
// CHECK-DAG: {"line": 8, "column": 21, "class": "scalar"
// CHECK-DAG: {"line": 11, "column": 10, "class": "scalar"
// CHECK-DAG: {"line": 20, "column": 12, "class": "scalar"
// CHECK-DAG: {"name": "i", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "j", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "k", "line": 10, "class": "scalar"
// CHECK-DAG: {"name": "d", "line": 16, "class": "scalar"
