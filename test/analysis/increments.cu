// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// ++, --, += , -=, *= and <<= follow the rules of the operators they stand
// for; /= of an affine value is nonaffine.

__global__ void increments(int *a, int n) {
  int tid = threadIdx.x;
  int i = n;
  i++;
  ++i;
  i += n;
  a[i] = 0;
  int t = tid;
  t += 3;
  t -= n;
  a[t] = 1;
  t *= 2;
  a[t] = 2;
  t <<= 1;
  a[t] = 3;
  int u = tid;
  u /= 2;
  a[u] = 4;
  int w = tid;
  w--;
  a[w] = 5;
}

__global__ void pointer_increment(int *a, int n) {
  int *p = a + threadIdx.x;
  p += n;
  *p = 0;
  p++;
  *p = 1;
}

// CHECK-LABEL: "name": "increments"
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"line": 19, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 25, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"name": "i", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "t", "line": 12, "class": "affine"
// CHECK-DAG: {"name": "u", "line": 20, "class": "nonaffine"
// CHECK-DAG: {"name": "w", "line": 23, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-LABEL: "name": "pointer_increment"
// CHECK-DAG: {"line": 31, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 33, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"name": "p", "line": 29, "class": "affine"{{.*}}"strides": [4, 0, 0]
