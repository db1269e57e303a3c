// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/temporal_diverge.ll,
// @temporal_diverge, @temporal_diverge_inloop and @temporal_uniform_indivloop.
// A value defined in a loop with a divergent exit is scalar inside the loop
// and nonaffine after it; a use inside an enclosing loop that exits uniformly
// is still after the divergent inner loop; a use after a uniform inner loop
// but inside a divergent outer loop is scalar. The inner loop's counter h,
// reset before the inner loop in every outer iteration, is scalar (LLVM:
// uni.merge.h uniform): the divergent exit's label reaches the outer header,
// which passes it on to the outer loop's exits, not back into the body.

__global__ void temporal_diverge(int *out, int n) {
  int tid = threadIdx.x;
  int h = 0, inc;
  do {
    inc = h + 1;
    out[inc] = 0;
    h = inc;
  } while (tid < n);
  out[inc + 5] = 1;
}

__global__ void temporal_diverge_inloop(int *out, int a, int n) {
  int tid = threadIdx.x;
  int inc;
  do {
    int h = 0;
    do {
      inc = h + 1;
      h = inc;
    } while (tid < n);
    out[inc + 5] = 0;
  } while (a < 0);
  out[inc + 5] = 1;
}

__global__ void temporal_uniform_indivloop(int *out, int a, int n) {
  int tid = threadIdx.x;
  int inc;
  do {
    int h = 0;
    do {
      inc = h + 1;
      h = inc;
    } while (h < a);
    out[inc + 5] = 0;
  } while (tid < n);
  out[inc + 5] = 1;
}

// CHECK-LABEL: "name": "temporal_diverge"
// CHECK-DAG: {"line": 17, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 20, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 19, "column": 12, "class": "affine"
// CHECK-DAG: {"name": "inc", "line": 14, "class": "nonaffine"
// CHECK-LABEL: "name": "temporal_diverge_inloop"
// CHECK-DAG: {"line": 32, "column": 5, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 34, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 31, "column": 14, "class": "affine"
// CHECK-DAG: {"line": 33, "column": 12, "class": "scalar"
// CHECK-DAG: {"name": "h", "line": 27, "class": "scalar"
// CHECK-LABEL: "name": "temporal_uniform_indivloop"
// CHECK-DAG: {"line": 46, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 48, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 45, "column": 14, "class": "scalar"
// CHECK-DAG: {"line": 47, "column": 12, "class": "affine"
// CHECK-DAG: {"name": "h", "line": 41, "class": "scalar"
