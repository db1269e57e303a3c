// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// `*` with one scalar operand is affine; a compile-time constant keeps the
// stride exact (tid * 4 indexes an int array with a 16-byte stride).

__global__ void mul_by_constant(int *a, float *f, double *d) {
  int tid = threadIdx.x;
  a[tid * 4] = 0;
  a[2 * tid + 1] = 1;
  f[(tid + 1) * 3] = 2.0f;
  d[tid * 2] = 3.0;
  int idx = tid * 4;
}

// CHECK-LABEL: "name": "mul_by_constant"
// CHECK-DAG: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16{{.*}}"strides_bytes": [16, 0, 0]
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 12
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"name": "idx", "line": 11, "class": "affine"{{.*}}"strides": [4, 0, 0]
