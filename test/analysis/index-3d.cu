// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// 3-D indexing: one stride per threadIdx dimension; blockDim factors are
// scalars unknown at compile time (null entries).

__global__ void index_3d(float *a, int *b) {
  unsigned t = (threadIdx.z * 8 + threadIdx.y) * 32 + threadIdx.x;
  a[t] = 0.0f;
  a[(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x] = 1.0f;
  b[threadIdx.x + 4 * threadIdx.y + 16 * threadIdx.z] = 2;
  a[threadIdx.z] = 3.0f;
}

// CHECK-LABEL: "name": "index_3d"
// CHECK-DAG: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 128, 1024]
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, null, null]
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 16, 64]
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 0{{.*}}"strides_bytes": [0, 0, 4]
// CHECK-DAG: {"name": "t", "line": 6, "class": "affine"{{.*}}"strides": [1, 32, 256]
