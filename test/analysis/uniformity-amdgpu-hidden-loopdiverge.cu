// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/hidden_loopdiverge.ll,
// @hidden_loop_diverge and @unobserved_loop_diverge: a loop with two
// divergent exits (H -> X on tid < 0, B -> Y on tid > 0).
// hidden_loop_diverge: x at X receives h from inside the loop (temporal
// divergence: nonaffine); y at Y and e at exit join both divergent exits (two
// conditions: affine tuples); h inside the loop is scalar.
// unobserved_loop_diverge: X and Y are each reached through one divergent
// exit only and receive values defined outside the loop, so x and y stay
// scalar; only exit joins the two exits.

__global__ void hidden_loop_diverge(int *out, int a, int b) {
  int tid = threadIdx.x;
  int h = 0, x, y, e;
  if (a < 0) {
    x = a;
    goto X;
  }
H:
  out[h] = 0;
  if (tid < 0) {
    x = h;
    goto X;
  }
  h = h + 1;
  if (tid > 0) {
    y = b;
    goto Y;
  }
  goto H;
X:
  out[x] = 1;
  if (a < 0) {
    y = 42;
    goto Y;
  }
  e = a;
  goto exit_;
Y:
  out[y] = 2;
  e = b;
exit_:
  out[e] = 3;
}

__global__ void unobserved_loop_diverge(int *out, int a, int b) {
  int tid = threadIdx.x;
  int h = 0, x, y, e;
  if (a < 0) {
    x = a;
    goto X;
  }
H:
  out[h] = 0;
  if (tid < 0) {
    x = b;
    goto X;
  }
  h = h + 1;
  if (tid > 0) {
    y = b;
    goto Y;
  }
  goto H;
X:
  out[x] = 1;
  e = a;
  goto exit_;
Y:
  out[y] = 2;
  e = b;
exit_:
  out[e] = 3;
}

// CHECK-LABEL: "name": "hidden_loop_diverge"
// CHECK-DAG: {"line": 20, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 32, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 40, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[21, 7\], \[26, 7\]\]|\[\[26, 7\], \[21, 7\]\]}}
// CHECK-DAG: {"line": 43, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[21, 7\], \[26, 7\]\]|\[\[26, 7\], \[21, 7\]\]}}
// CHECK-DAG: {"line": 15, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 21, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 26, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 33, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "x", "line": 14, "class": "nonaffine"
// CHECK-LABEL: "name": "unobserved_loop_diverge"
// CHECK-DAG: {"line": 54, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 66, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 70, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 73, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[55, 7\], \[60, 7\]\]|\[\[60, 7\], \[55, 7\]\]}}
// CHECK-DAG: {"line": 55, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 60, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "x", "line": 48, "class": "scalar"
// CHECK-DAG: {"name": "y", "line": 48, "class": "scalar"
