// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// tid * n with a scalar n not known at compile time is affine with an unknown
// stride: stride_bytes is null, strides_bytes names the unknown entry. The y
// and z strides stay 0 (0 * n).

__global__ void mul_by_unknown_scalar(int *a, int n, int w) {
  int tid = threadIdx.x;
  a[tid * n] = 0;
  a[n * tid + w] = 1;
  a[threadIdx.y * w + threadIdx.x] = 2;
  int idx = tid * n;
}

// CHECK-LABEL: "name": "mul_by_unknown_scalar"
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"strides_bytes": [null, 0, 0]
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"strides_bytes": [null, 0, 0]
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, null, 0]
// CHECK-DAG: {"name": "idx", "line": 11, "class": "affine"{{.*}}"strides": [null, 0, 0]
