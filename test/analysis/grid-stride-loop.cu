// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Grid-stride loops: the loop condition is affine (a divergent exit), but the
// loop header is not a join of that branch (only one of its successors leads
// back), so i stays one affine tuple with stride 1 inside the loop and every
// access has a 4-byte stride. i is not used after the loop.

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

__global__ void grid_stride_while(int n, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  while (i < n) {
    out[i] = in[i] * 2;
    i += stride;
  }
}

// CHECK-LABEL: "name": "saxpy"
// CHECK-DAG: {"line": 10, "column": 5, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 10, "column": 16, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 10, "column": 23, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 8, "column": 55, "class": "affine"
// CHECK-DAG: {"name": "n", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "a", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "i", "line": 8, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-LABEL: "name": "grid_stride_while"
// CHECK-DAG: {"line": 17, "column": 5, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 17, "column": 14, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 16, "column": 10, "class": "affine"
// CHECK-DAG: {"name": "i", "line": 14, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-DAG: {"name": "stride", "line": 15, "class": "scalar"
