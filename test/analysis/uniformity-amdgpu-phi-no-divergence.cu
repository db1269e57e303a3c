// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/phi_no_divergence.ll,
// @no_divergent_exit1/@no_divergent_exit2 (one kernel: the divergent branch's
// paths meet in a block before the back edge) and @no_loop_phi_divergence.
// Where the paths of a divergent branch meet, a variable is divergent only if
// its reaching definitions differ between those paths: lb and ev have the same
// definition on both, lc (updated on one side only, loop-carried) does not.
// uni_val is assigned once before the divergent branch, div_val on each side.

__global__ void no_divergent_exit1(int *out, int a, int b, int c) {
  int tid = threadIdx.x;
  bool div_cond = tid < 0;
  int lb = b, lc = c, ev = a;
header:
  out[lb] = 0;
  out[lc + 64] = 1;
  if (ev < 42)
    goto end;
  lb = lb + 1;
  ev = ev + 1;
  if (div_cond)
    lc = lc + 1;
  goto header;
end:
  out[ev] = 2;
}

__global__ void no_loop_phi_divergence(int *out, int a) {
  int tid = threadIdx.x;
  int uni_val = 0, div_val = 0;
  if (a < 0) {
    uni_val = 1;
    if (tid < 0) {
      div_val = 1;
      out[0] = 0;
    } else {
      div_val = 2;
      out[1] = 0;
    }
  }
  out[uni_val] = 1;
  out[div_val] = 2;
}

// CHECK-LABEL: "name": "no_divergent_exit1"
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "{{affine|nonaffine}}"
// CHECK-DAG: {"line": 25, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 17, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 21, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "lb", "line": 13, "class": "scalar"
// CHECK-DAG: {"name": "lc", "line": 13, "class": "{{affine|nonaffine}}"
// CHECK-DAG: {"name": "ev", "line": 13, "class": "scalar"
// CHECK-LABEL: "name": "no_loop_phi_divergence"
// CHECK-DAG: {"line": 41, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 42, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}33, 9]]
// CHECK-DAG: {"line": 31, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 33, "column": 9, "class": "affine"
// CHECK-DAG: {"name": "uni_val", "line": 30, "class": "scalar"
