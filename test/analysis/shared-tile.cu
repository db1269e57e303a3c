// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A padded shared-memory tile: space "shared", a row of 33 floats gives the y
// stride 132; the transposed read has the x stride 132. Values loaded from
// shared memory the kernel writes are nonaffine, even from a scalar address
// (memory is per block: docs/analysis.md, deliberately unlike LLVM, which calls
// a load from a uniform address uniform).

__global__ void transpose(float *out, const float *in, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void shared_broadcast(int *out, int n) {
  __shared__ int s;
  if (threadIdx.x == 0) s = n;
  __syncthreads();
  int v = s;
  out[v + threadIdx.x] = 0;
}

// CHECK-LABEL: "name": "transpose"
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "shared", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 132, 0]
// CHECK-DAG: {"line": 12, "column": 36, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, null, 0]
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, null, 0]
// CHECK-DAG: {"line": 16, "column": 20, "kind": "load", "space": "shared", "class": "affine", "stride_bytes": 132{{.*}}"strides_bytes": [132, 4, 0]
// CHECK-DAG: {"name": "x", "line": 10, "class": "affine"
// CHECK-DAG: {"name": "y", "line": 11, "class": "affine"
// CHECK-LABEL: "name": "shared_broadcast"
// CHECK-DAG: {"line": 21, "column": 25, "kind": "store", "space": "shared", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 23, "column": 11, "kind": "load", "space": "shared", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 24, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 21, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "v", "line": 23, "class": "nonaffine"
