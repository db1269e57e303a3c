// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Kernel parameters, literals, sizeof, enumerators and constant expressions
// are scalar; constants keep their value, so they scale strides exactly.

enum { TILE = 16 };
constexpr int K = 3;

__global__ void scalar_sources(int *a, int n, float f) {
  a[TILE] = 0;
  a[K * n] = 1;
  a[sizeof(int) * n] = 2;
  a[n + 7] = 3;
  a[threadIdx.x * TILE + K] = 4;
  a[threadIdx.x * sizeof(double)] = 5;
  int s = n * K - TILE;
  int c = sizeof(float) + 2 * K;
}

// CHECK-LABEL: "name": "scalar_sources"
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 64{{.*}}"strides_bytes": [64, 0, 0]
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 32{{.*}}"strides_bytes": [32, 0, 0]
// CHECK-DAG: {"name": "a", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "n", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "f", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "s", "line": 15, "class": "scalar"
// CHECK-DAG: {"name": "c", "line": 16, "class": "scalar"
