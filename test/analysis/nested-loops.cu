// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Nested loops. In the matrix product the row depends on threadIdx.y only, so
// a[row * n + k] is affine with x stride 0 and an unknown y stride. In
// nested_divergent the inner loop exits divergently: inside it j is scalar
// (the threads still looping agree), after it j is nonaffine (temporal
// divergence); i is not defined in the inner loop and stays scalar.

__global__ void matmul(float *c, const float *a, const float *b, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

__global__ void nested_divergent(int *out, int n) {
  int tid = threadIdx.x;
  for (int i = 0; i < n; i++) {
    int j = 0;
    while (j < tid) {
      out[i * 64 + j] = 0;
      j++;
    }
    out[j] = 1;
    out[i] = 2;
  }
}

// CHECK-LABEL: "name": "matmul"
// CHECK-DAG: {"line": 13, "column": 12, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 0{{.*}}"strides_bytes": [0, null, 0]
// CHECK-DAG: {"line": 13, "column": 29, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, 0, 0]
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"strides_bytes": [4, null, 0]
// CHECK-DAG: {"line": 12, "column": 19, "class": "scalar"
// CHECK-DAG: {"name": "sum", "line": 11, "class": "nonaffine"
// CHECK-DAG: {"name": "k", "line": 12, "class": "scalar"
// CHECK-LABEL: "name": "nested_divergent"
// CHECK-DAG: {"line": 22, "column": 7, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 25, "column": 5, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 26, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 19, "column": 19, "class": "scalar"
// CHECK-DAG: {"line": 21, "column": 12, "class": "affine"
// CHECK-DAG: {"name": "i", "line": 19, "class": "scalar"
// CHECK-DAG: {"name": "j", "line": 20, "class": "nonaffine"
