// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Calls to __device__ functions are analysed with the classes of the
// arguments at the call (context-sensitive): scale(tid, 4) is tid*4, scale of
// scalars is scalar. The callee's parameters are reported with "function".

__device__ int scale(int v, int s) {
  return v * s;
}

__global__ void call_affine(int *a, int n) {
  a[scale(threadIdx.x, 4)] = 0;
  a[scale(threadIdx.x, n)] = 1;
}

__global__ void call_scalar(int *a, int n, int m) {
  a[scale(n, m)] = 0;
  a[scale(blockIdx.x, 2)] = 1;
}

// CHECK-LABEL: "name": "call_affine"
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 16
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null
// CHECK-DAG: {"name": "v", "line": 6, "class": "affine"{{.*}}"function": "scale"
// CHECK-DAG: {"name": "s", "line": 6, "class": "scalar"{{.*}}"function": "scale"
// CHECK-LABEL: "name": "call_scalar"
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "v", "line": 6, "class": "scalar"{{.*}}"function": "scale"
// CHECK-DAG: {"name": "s", "line": 6, "class": "scalar"{{.*}}"function": "scale"
