// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// irreducible-2.ll, @cycle_join_dominated_by_diverge and @cycle_enter_nested.
// join_dominated_by_diverge: an irreducible cycle (entries H1, H2) entered
// uniformly; only the join of the divergent branch inside it is divergent.
// enter_nested: nested cycles entered through a divergent branch at B and H1;
// B, H2 and H1 all become joins: every value selected there is a divergent
// affine tuple.

__global__ void cycle_join_dominated_by_diverge(int *out, int a, int b) {
  int tid = threadIdx.x;
  int h2, md;
  if (a < 0)
    goto H1;
  h2 = 0;
  goto H2;
H1:
  h2 = b;
H2:
  out[h2] = 0;
  if (tid < 0)
    md = h2 + 1;
  else
    md = h2 + 2;
  out[md] = 1;
  if (a < 0)
    goto H1;
}

__global__ void cycle_enter_nested(int *out, int a, int b) {
  int tid = threadIdx.x;
  int h1, h2, mb;
  if (tid < 0) {
    mb = 0;
    goto B;
  }
  h1 = 1;
H1:
  out[h1] = 0;
  h2 = a;
H2:
  out[h2] = 1;
  mb = a;
B:
  out[mb] = 2;
  if (a >= 0) {
    h2 = 2;
    goto H2;
  }
  if (a >= 0)
    goto X;
  h1 = b;
  goto H1;
X:
  out[3] = 3;
}

// CHECK-LABEL: "name": "cycle_join_dominated_by_diverge"
// CHECK-DAG: {"line": 20, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 25, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}21, 7]]
// CHECK-DAG: {"line": 21, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "h2", "line": 12, "class": "scalar"
// CHECK-LABEL: "name": "cycle_enter_nested"
// CHECK-DAG: {"line": 39, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}33, 7]]
// CHECK-DAG: {"line": 42, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}33, 7]]
// CHECK-DAG: {"line": 45, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}33, 7]]
// CHECK-DAG: {"line": 33, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 46, "column": 7, "class": "scalar"
