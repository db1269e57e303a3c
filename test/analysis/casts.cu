// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Integer casts keep the class and the strides. Float arithmetic keeps the
// class (strides unknown); converting a non-scalar float to an integer gives
// nonaffine, a scalar one stays scalar.

__global__ void casts(int *a, float *f, int n) {
  int tid = threadIdx.x;
  long l = (long)tid;
  a[l] = 0;
  a[(short)tid] = 1;
  a[(unsigned)tid + 2u] = 2;
  float x = tid * 0.5f;
  int k = (int)x;
  a[k] = 3;
  int s = (int)(n * 0.5f);
  a[s] = 4;
  f[tid] = x;
  float g = (float)n * 2.0f;
  a[(long long)threadIdx.x * 2] = 5;
}

// CHECK-LABEL: "name": "casts"
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 19, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"name": "l", "line": 8, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-DAG: {"name": "x", "line": 12, "class": "affine"
// CHECK-DAG: {"name": "k", "line": 13, "class": "nonaffine"
// CHECK-DAG: {"name": "s", "line": 15, "class": "scalar"
// CHECK-DAG: {"name": "g", "line": 18, "class": "scalar"
