// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// diverged-entry-basic.ll: an irreducible cycle (entries P and R, or P and T)
// entered uniformly, with a divergent branch Q whose sides meet in S: s_phi is
// a divergent affine tuple in both kernels. In uniform_cycle_1 pp_phi at P is
// uniform (LLVM agrees). Deliberate difference in divergent_cycle_1: LLVM
// assumes the whole cycle divergent because the divergent branch jumps to the
// cycle entry R; here label propagation finds S as the only join and P, which
// the threads reach together after S, keeps pp_phi scalar.

__global__ void divergent_cycle_1(int *out, int a, int b) {
  int tid = threadIdx.x;
  int pp_phi, s_phi;
  if (a < 0) {
    pp_phi = a;
    goto P;
  }
  goto R;
P:
  out[pp_phi] = 0;
  if (tid < 0) {
    s_phi = b + 1;
    goto S;
  }
R:
  s_phi = b + 1;
S:
  out[s_phi] = 1;
  if (a < 0)
    goto exit_;
  pp_phi = b;
  goto P;
exit_:
  out[b + 1] = 2;
}

__global__ void uniform_cycle_1(int *out, int a, int b) {
  int tid = threadIdx.x;
  int pp_phi, s_phi;
  if (a < 0) {
    pp_phi = a;
    goto P;
  }
  goto T;
P:
  out[pp_phi] = 0;
  if (tid < 0) {
    s_phi = b + 1;
    goto S;
  }
  s_phi = b + 2;
S:
  out[s_phi] = 1;
  if (a < 0)
    goto exit_;
T:
  pp_phi = b;
  goto P;
exit_:
  out[b + 1] = 2;
}

// CHECK-LABEL: "name": "divergent_cycle_1"
// CHECK-DAG: {"line": 20, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 28, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}21, 7]]
// CHECK-DAG: {"line": 34, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 21, "column": 7, "class": "affine"
// CHECK-LABEL: "name": "uniform_cycle_1"
// CHECK-DAG: {"line": 46, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 53, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}47, 7]]
// CHECK-DAG: {"line": 47, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "pp_phi", "line": 39, "class": "scalar"
