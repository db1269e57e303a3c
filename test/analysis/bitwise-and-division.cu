// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// /, %, >>, &, |, ^ and ~ are scalar of scalar operands and nonaffine as soon
// as one operand is not scalar.

__global__ void bitwise_and_division(int *a, int n, int m) {
  int tid = threadIdx.x;
  a[n / 4 + n % 3] = 0;
  a[(n & 7) | (m ^ n)] = 1;
  a[~n & 255] = 2;
  a[tid | 1] = 3;
  a[tid ^ n] = 4;
  a[~tid & 255] = 5;
  a[tid / n] = 6;
  int s = (n / 2) ^ (m % 5);
  int v = tid | n;
}

// CHECK-LABEL: "name": "bitwise_and_division"
// CHECK-DAG: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "s", "line": 14, "class": "scalar"
// CHECK-DAG: {"name": "v", "line": 15, "class": "nonaffine"
