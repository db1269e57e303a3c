// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/hidden_diverge.ll.
// @hidden_diverge: as the NVPTX test of the same name.
// @hidden_loop_ipd: a loop exited through a uniform branch (C -> E) and a
// divergent one (D -> F); the exits meet in G, a join of D's branch (the
// loop header passes D's label on to every exit), so g is a divergent affine
// tuple selected by D. g is not defined inside the loop.

__global__ void hidden_diverge(int *out, int n, int a, int b) {
  int tid = threadIdx.x;
  int hidden, ipd;
  if (tid < 0) {
    hidden = 1;
    goto C;
  }
  if (n < 0) {
    hidden = 2;
    goto C;
  }
  ipd = a;
  goto merge;
C:
  out[hidden] = 0;
  ipd = b;
merge:
  out[ipd] = 1;
}

__global__ void hidden_loop_ipd(int *out, int n) {
  int tid = threadIdx.x;
  int g;
header:
  if (tid < 0)
    out[0] = 1;
  else
    out[1] = 1;
  if (n < 0) {
    g = 0;
    goto G;
  }
  if (tid < 0)
    goto header;
  g = 1;
G:
  out[g] = 2;
}

// CHECK-LABEL: "name": "hidden_diverge"
// CHECK-DAG: {"line": 23, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 26, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 12, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 16, "column": 7, "class": "scalar"
// CHECK-LABEL: "name": "hidden_loop_ipd"
// CHECK-DAG: {"line": 34, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 45, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}41, 7]]
// CHECK-DAG: {"line": 33, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 37, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 41, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "g", "line": 31, "class": "affine"
