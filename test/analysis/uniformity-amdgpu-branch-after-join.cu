// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/branch-after-join.ll:
// after the join of a divergent branch (div_a, div_b divergent) a uniform
// branch follows; the values it joins (div_d) are scalar again.

__global__ void test_ctrl_divergence(int *out, int a, int b, int c, int d) {
  int tid = threadIdx.x;
  int div_a, div_b, div_d;
  if (tid == 0) {
    div_a = a + 10;
    div_b = b + 20;
  } else {
    div_a = a + 1;
    div_b = b + 2;
  }
  out[div_a] = 0;
  out[div_b] = 1;
  if (c == 0)
    div_d = d + 1;
  else
    div_d = d + 3;
  out[div_d] = 2;
}

// CHECK-LABEL: "name": "test_ctrl_divergence"
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 9, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 18, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "div_a", "line": 8, "class": "affine"
// CHECK-DAG: {"name": "div_d", "line": 8, "class": "scalar"
