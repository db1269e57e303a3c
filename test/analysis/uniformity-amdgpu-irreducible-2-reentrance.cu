// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// irreducible-2.ll, @cycle_reentrance and @cycle_join_not_dominated: cycles
// with two entries (H and C), entered uniformly, with a divergent branch
// inside.
// Deliberate difference: LLVM conservatively marks every value in these
// cycles divergent (its test says so: "we mark all values in the cycle being
// divergent conservatively"). docs/analysis.md handles irreducible control
// flow by label propagation without a special case: only the joins of the
// divergent branch are divergent, so inc_c (and inc_b in cycle_reentrance),
// computed from values that reach no join, stay scalar. In
// cycle_join_not_dominated the labels reach B again around the cycle (no
// reducible header stops them), so B is a join and inc_b is divergent.

__global__ void cycle_reentrance(int *out, int a, int b) {
  int tid = threadIdx.x;
  int mh, mc, inc_b, inc_c, md;
  if (!(a < 0)) {
    mc = 0;
    goto C;
  }
  mh = 0;
H:
  if (tid < 0) {
    mc = mh;
    goto C;
  }
  inc_b = mh + 1;
  out[inc_b] = 0;
  md = inc_b;
  goto D;
C:
  inc_c = mc + 2;
  out[inc_c] = 1;
  md = inc_c;
D:
  out[md] = 2;
  if (a < 0) {
    mh = b;
    goto H;
  }
}

__global__ void cycle_join_not_dominated(int *out, int a, int b) {
  int tid = threadIdx.x;
  int mh, mb, mc, inc_b, inc_c, md;
  if (a < 0) {
    mc = 0;
    goto C;
  }
  mh = 0;
H:
  if (a < 0) {
    mc = mh;
    goto C;
  }
  mb = 0;
B:
  inc_b = mb + 1;
  out[inc_b] = 0;
  md = inc_b;
  goto D;
C:
  inc_c = mc + 2;
  out[inc_c] = 1;
  md = inc_c;
  if (tid < 0)
    goto D;
  mb = b;
  goto B;
D:
  out[md] = 2;
  if (a >= 0) {
    mh = b;
    goto H;
  }
}

// CHECK-LABEL: "name": "cycle_reentrance"
// CHECK-DAG: {"line": 29, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 34, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 37, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}24, 7]]
// CHECK-DAG: {"line": 24, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 38, "column": 7, "class": "scalar"
// CHECK-LABEL: "name": "cycle_join_not_dominated"
// CHECK-DAG: {"line": 60, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}67, 7]]
// CHECK-DAG: {"line": 65, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 72, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}67, 7]]
// CHECK-DAG: {"line": 67, "column": 7, "class": "affine"
