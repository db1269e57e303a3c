// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// exit-divergence.ll, @basic and @no_divergent_exit.
// basic: an irreducible cycle entered uniformly with a divergent exit:
// values defined in the cycle are scalar inside and nonaffine after it;
// b + 1 is scalar everywhere.
// no_divergent_exit: a cycle entered through a divergent branch (entries H and
// B) whose exits are uniform: mh and mb, selected at the entries, are
// divergent affine tuples; dx carries mb out (still a tuple, not temporally
// divergent). Deliberate difference: LLVM also calls ux (bb or cc, both a + 1,
// selected by uniform branches at the same iteration for all threads)
// divergent; here X is not a join of the entry branch and ux is scalar.

__global__ void basic(int *out, int a, int b) {
  int tid = threadIdx.x;
  int p1, p2, tt_phi;
  if (a < 0) {
    tt_phi = a;
    goto T;
  }
  p1 = a;
  p2 = a;
P:
  out[p1] = 0;
  out[p2] = 1;
  if (tid < 0)
    goto exit_;
  tt_phi = b + 1;
T:
  p1 = b;
  p2 = tt_phi;
  goto P;
exit_:
  out[p1 + 1] = 2;
  out[p2 + 1] = 3;
  out[b + 1] = 4;
}

__global__ void no_divergent_exit(int *out, int a, int b) {
  int tid = threadIdx.x;
  int mh, mb, bb, cc, ux, dx;
  if (tid < 0) {
    mb = 1;
    goto B;
  }
  mh = 0;
H:
  out[mh] = 0;
  mb = a;
B:
  bb = a + 1;
  out[bb] = 1;
  if (a < 0) {
    ux = bb;
    dx = mb;
    goto X;
  }
  cc = a + 1;
  out[cc] = 2;
  if (a < 0) {
    ux = cc;
    dx = cc;
    goto X;
  }
  mh = b;
  goto H;
X:
  out[ux] = 3;
  out[dx] = 4;
}

// CHECK-LABEL: "name": "basic"
// CHECK-DAG: {"line": 24, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 25, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 34, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 35, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 36, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 26, "column": 7, "class": "affine"
// CHECK-LABEL: "name": "no_divergent_exit"
// CHECK-DAG: {"line": 48, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}42, 7]]
// CHECK-DAG: {"line": 52, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 59, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 68, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 69, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}42, 7]]
// CHECK-DAG: {"line": 53, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 60, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "ux", "line": 41, "class": "scalar"
