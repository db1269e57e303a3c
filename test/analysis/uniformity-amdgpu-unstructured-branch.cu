// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/unstructured-branch.ll:
// one side of a divergent branch is also entered from above by a uniform
// branch (Alpha -> B4) and both sides contain uniform branches of their own;
// where they meet (B6) the values defined on each side are divergent.

__global__ void test_ctrl_divergence(int *out, int a, int b, int c) {
  int tid = threadIdx.x;
  int da, db, dc;
  if (a != 0)
    goto B4;
  if (tid == 0)
    goto B3;
  da = a + 1;
  db = b + 2;
  dc = c + 3;
  if (a == 0)
    out[0] = 0;
  goto B6;
B3:
  out[1] = 0;
B4:
  da = a + 10;
  db = b + 20;
  dc = c + 30;
  if (a == 0)
    out[2] = 0;
B6:
  out[da] = 1;
  out[db] = 2;
  out[dc] = 3;
}

// CHECK-LABEL: "name": "test_ctrl_divergence"
// CHECK-DAG: {"line": 29, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 30, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 31, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 10, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 12, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 17, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 26, "column": 7, "class": "scalar"
