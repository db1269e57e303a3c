// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/phi_div_loop.ll
// (llvm/llvm-project#137277): uniform loops on both sides of a divergent
// branch; inside them and right after them the values are scalar, where the
// sides meet they are divergent, and a second divergent branch adds a second
// condition.

__global__ void test_loop_ctrl_divergence(int *out, int a, int b, int c, int d) {
  int tid = threadIdx.x;
  int div_a;
  if (d == 0) {
    div_a = a;
  } else if (tid == 0) {
    int a3 = a + 20;
    do {
      a3 = a3 + 1;
      out[a3] = 0;
    } while (a3 < c);
    div_a = a3;
  } else {
    int a0 = a;
    do {
      a0 = a0 + 1;
      out[a0] = 1;
    } while (a0 < b);
    div_a = a0 + 10;
  }
  out[div_a] = 2;
  int ret = 0;
  if (tid == 2)
    ret = div_a + 2;
  out[ret] = 3;
}

// CHECK-LABEL: "name": "test_loop_ctrl_divergence"
// CHECK-DAG: {"line": 17, "column": 7, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 24, "column": 7, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 28, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}13, 14]]
// CHECK-DAG: {"line": 32, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[13, 14\], \[30, 7\]\]|\[\[30, 7\], \[13, 14\]\]}}
// CHECK-DAG: {"line": 11, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 13, "column": 14, "class": "affine"
// CHECK-DAG: {"line": 18, "column": 14, "class": "scalar"
// CHECK-DAG: {"line": 25, "column": 14, "class": "scalar"
// CHECK-DAG: {"line": 30, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "a3", "line": 14, "class": "scalar"
// CHECK-DAG: {"name": "a0", "line": 21, "class": "scalar"
