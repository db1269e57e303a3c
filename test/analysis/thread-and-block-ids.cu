// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// blockIdx, blockDim, gridDim and warpSize are the same in every thread of a
// block (scalar); threadIdx.x/.y/.z are affine with stride 1 in their own
// dimension and 0 in the others. stride_bytes is the x stride only, so an
// access indexed by threadIdx.y is affine with stride_bytes 0.

__global__ void ids(int *a) {
  a[blockIdx.x] = 0;
  a[blockIdx.y + blockDim.x] = 1;
  a[gridDim.x * blockDim.y + blockIdx.z] = 2;
  a[warpSize] = 3;
  a[threadIdx.x] = 4;
  a[threadIdx.y] = 5;
  a[threadIdx.z] = 6;
  a[blockIdx.x * blockDim.x + threadIdx.x] = 7;
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tz = threadIdx.z;
}

// CHECK-LABEL: "name": "ids"
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 0{{.*}}"strides_bytes": [0, 4, 0]
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 0{{.*}}"strides_bytes": [0, 0, 4]
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"name": "a", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "bx", "line": 16, "class": "scalar"
// CHECK-DAG: {"name": "tx", "line": 17, "class": "affine"{{.*}}"strides": [1, 0, 0]
// CHECK-DAG: {"name": "ty", "line": 18, "class": "affine"{{.*}}"strides": [0, 1, 0]
// CHECK-DAG: {"name": "tz", "line": 19, "class": "affine"{{.*}}"strides": [0, 0, 1]
