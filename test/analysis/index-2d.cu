// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// 2-D indexing: strides_bytes gives the x, y and z strides; a row length that
// is a scalar unknown at compile time makes the y stride null while the x
// stride (stride_bytes) stays known.

__global__ void index_2d(float *a, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  a[threadIdx.y * 64 + threadIdx.x] = 0.0f;
  a[y * w + x] = 1.0f;
  a[x * 64 + y] = 2.0f;
  a[threadIdx.y * 32 + threadIdx.x * 2] = 3.0f;
}

// CHECK-LABEL: "name": "index_2d"
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 256, 0]
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, null, 0]
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 256{{.*}}"strides_bytes": [256, 4, 0]
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8{{.*}}"strides_bytes": [8, 128, 0]
// CHECK-DAG: {"name": "x", "line": 7, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-DAG: {"name": "y", "line": 8, "class": "affine"{{.*}}"strides": [0, 1, 0]
