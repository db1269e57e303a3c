// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// __constant__ data is in the global space and never written by a kernel: a
// load from a scalar address of it is scalar, so it can feed affine addresses.
// A per-thread load from it is affine, its value nonaffine.

__constant__ int c_off[16];
__constant__ float c_coef[4];

__global__ void constant_memory(int *out, float *f) {
  int tid = threadIdx.x;
  int k = c_off[2];
  out[k + tid] = 0;
  int j = c_off[tid];
  out[j] = 1;
  f[tid] = c_coef[1] * 2.0f;
}

// CHECK-LABEL: "name": "constant_memory"
// CHECK-DAG: {"line": 11, "column": 11, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 13, "column": 11, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 15, "column": 12, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "k", "line": 11, "class": "scalar"
// CHECK-DAG: {"name": "j", "line": 13, "class": "nonaffine"
