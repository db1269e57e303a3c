// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/
// propagate-loop-live-out.ll: values joined inside a loop (i2, i3) make its
// exit divergent; i2 carried out of the loop is nonaffine (temporal
// divergence), so the branch on it is nonaffine and the value selected by it
// (x) is not scalar.

__global__ void propagate_loop_live_out(int *out) {
  int tid = threadIdx.x;
  bool i5 = tid == -1;
  int iv = 7;
  bool i2, i3;
  for (;;) {
    if (i5) {
      iv = iv - 1;
      i2 = false;
      i3 = iv == 0;
    } else {
      iv = 0;
      i2 = true;
      i3 = true;
    }
    if (i3)
      break;
  }
  bool x;
  if (i2)
    x = false;
  else
    x = true;
  if (x)
    out[0] = 1;
}

// CHECK-LABEL: "name": "propagate_loop_live_out"
// CHECK-DAG: {"line": 14, "column": 9, "class": "affine"
// CHECK-DAG: {"line": 23, "column": 9, "class": "{{affine|nonaffine}}"
// CHECK-DAG: {"line": 27, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"line": 31, "column": 7, "class": "{{affine|nonaffine}}"
// CHECK-DAG: {"name": "i2", "line": 12, "class": "nonaffine"
// CHECK-DAG: {"name": "x", "line": 26, "class": "{{affine|nonaffine}}"
