// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/temporal_diverge.ll,
// @temporal_diverge_loopuser and @temporal_diverge_loopuser_nested: the value
// carried out of a divergent loop is used inside a following (uniform) loop,
// alone or with both loops inside an enclosing loop. The use is nonaffine;
// the uniform loop's own counter stays scalar, and so does the divergent
// loop's counter h inside it (reset in every outer iteration; LLVM:
// uni.merge.h uniform).

__global__ void temporal_diverge_loopuser(int *out, int a, int n) {
  int tid = threadIdx.x;
  int h = 0, inc;
  do {
    inc = h + 1;
    h = inc;
  } while (tid < n);
  int j = 0;
  do {
    out[inc + j] = 0;
    j++;
  } while (j < a);
}

__global__ void temporal_diverge_loopuser_nested(int *out, int a, int n) {
  int tid = threadIdx.x;
  int inc;
  for (;;) {
    int h = 0;
    do {
      inc = h + 1;
      h = inc;
    } while (tid < n);
    do {
      out[inc + 5] = 0;
    } while (a < 0);
  }
}

// CHECK-LABEL: "name": "temporal_diverge_loopuser"
// CHECK-DAG: {"line": 19, "column": 5, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 16, "column": 12, "class": "affine"
// CHECK-DAG: {"line": 21, "column": 12, "class": "scalar"
// CHECK-DAG: {"name": "j", "line": 17, "class": "scalar"
// CHECK-DAG: {"name": "inc", "line": 12, "class": "nonaffine"
// CHECK-LABEL: "name": "temporal_diverge_loopuser_nested"
// CHECK-DAG: {"line": 34, "column": 7, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 32, "column": 14, "class": "affine"
// CHECK-DAG: {"line": 35, "column": 14, "class": "scalar"
// CHECK-DAG: {"name": "h", "line": 28, "class": "scalar"
