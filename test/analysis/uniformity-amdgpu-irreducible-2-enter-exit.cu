// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// irreducible-2.ll, @cycle_diverge_enter and @cycle_diverge_exit: a two-block
// cycle H <-> B with entries H and B.
// cycle_diverge_enter: entered through a divergent branch; both entries are
// joins of it (mh, mb are divergent affine tuples); the exit, divergent too,
// carries mb (defined in the cycle) out: nonaffine.
// cycle_diverge_exit: entered uniformly, left divergently: scalar inside,
// nonaffine after.

__global__ void cycle_diverge_enter(int *out, int a, int b) {
  int tid = threadIdx.x;
  bool dc = tid < 0;
  int mh, mb;
  if (dc) {
    mb = 1;
    goto B;
  }
  mh = 0;
H:
  out[mh] = 0;
  mb = a;
B:
  out[mb] = 1;
  if (dc)
    goto X;
  mh = b;
  goto H;
X:
  out[mb + 1] = 2;
}

__global__ void cycle_diverge_exit(int *out, int a, int b) {
  int tid = threadIdx.x;
  int mh, mb;
  if (a < 0) {
    mb = 1;
    goto B;
  }
  mh = 0;
H:
  out[mh] = 0;
  mb = a;
B:
  out[mb] = 1;
  if (tid < 0)
    goto X;
  mh = b;
  goto H;
X:
  out[mb + 1] = 2;
}

// CHECK-LABEL: "name": "cycle_diverge_enter"
// CHECK-DAG: {"line": 21, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}15, 7]]
// CHECK-DAG: {"line": 24, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}15, 7]]
// CHECK-DAG: {"line": 30, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 15, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 25, "column": 7, "class": "affine"
// CHECK-LABEL: "name": "cycle_diverge_exit"
// CHECK-DAG: {"line": 42, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 45, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 51, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 36, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 46, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "mh", "line": 35, "class": "scalar"
