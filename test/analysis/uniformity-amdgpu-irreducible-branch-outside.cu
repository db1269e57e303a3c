// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// branch-outside.ll, @basic: an irreducible cycle (P, Q, T) entered at P and T
// by a divergent branch outside it, left through a uniform branch.
// The entries are joins: the values selected there (pp_phi, t_phi, and
// qq_div computed from pp_phi) are divergent affine tuples. The exit is not a
// join and the cycle has no divergent exit: ee (b + 1) is scalar.
// Deliberate difference: LLVM marks every value of such a cycle divergent
// ("CYCLES ASSUMED DIVERGENT"), including pp = b + 1 and tt = b + 1, which are
// the same in every thread and every iteration: scalar here.

__global__ void basic(int *out, int a, int b) {
  int tid = threadIdx.x;
  int pp_phi, pp, qq, qq_div, t_phi, tt;
  if (tid < 0) {
    t_phi = a;
    goto T;
  }
  pp_phi = a;
P:
  pp = b + 1;
  out[pp] = 0;
  out[pp_phi] = 1;
  qq = b + 1;
  qq_div = pp_phi + 1;
  out[qq_div] = 2;
  if (a >= 0)
    goto exit_;
  t_phi = qq;
T:
  tt = b + 1;
  out[t_phi] = 3;
  out[tt] = 4;
  pp_phi = b;
  goto P;
exit_:
  out[b + 1] = 5;
}

// CHECK-LABEL: "name": "basic"
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 23, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}15, 7]]
// CHECK-DAG: {"line": 26, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}15, 7]]
// CHECK-DAG: {"line": 32, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}15, 7]]
// CHECK-DAG: {"line": 33, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 37, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 15, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 27, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "pp", "line": 14, "class": "scalar"
// CHECK-DAG: {"name": "tt", "line": 14, "class": "scalar"
