// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A product of two non-scalar operands is not affine (Figure 3.2: one operand
// of an affine MUL must be scalar).

__global__ void mul_affine_affine(int *a) {
  int tid = threadIdx.x;
  a[tid * tid] = 0;
  a[threadIdx.x * threadIdx.y] = 1;
  a[(tid + 1) * (tid - 1)] = 2;
  int sq = tid * tid;
}

// CHECK-LABEL: "name": "mul_affine_affine"
// CHECK-DAG: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "tid", "line": 6, "class": "affine"
// CHECK-DAG: {"name": "sq", "line": 10, "class": "nonaffine"
