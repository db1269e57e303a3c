// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/phi_div_branch.ll
// (llvm/llvm-project#137277): several values joined after a divergent
// if-then-else are all divergent; a second divergent branch on the same
// condition makes div_d divergent through its own join.

__global__ void test_ctrl_divergence(int *out, int a, int b, int c, int d) {
  int tid = threadIdx.x;
  bool div_cond = tid == 0;
  int div_a, div_b, div_c;
  if (div_cond) {
    div_a = a + 10;
    div_b = b + 20;
    div_c = c + 30;
  } else {
    div_a = a + 1;
    div_b = b + 2;
    div_c = c + 3;
  }
  out[div_a] = 0;
  out[div_b] = 1;
  out[div_c] = 2;
  int div_d = d;
  if (!div_cond)
    div_d = d + 1;
  out[div_d] = 3;
}

// CHECK-LABEL: "name": "test_ctrl_divergence"
// CHECK-DAG: {"line": 20, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}11, 7]]
// CHECK-DAG: {"line": 21, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}11, 7]]
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}11, 7]]
// CHECK-DAG: {"line": 26, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}24, 7]]
// CHECK-DAG: {"line": 11, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 24, "column": 7, "class": "affine"
