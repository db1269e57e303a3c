// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/daorder.ll: uniform
// definitions on both sides of a divergent branch (defAtA, defAtB) meet in a
// divergent value (defAtC); a later uniform loop is not affected.

__global__ void daorder(int *out, int n) {
  int tid = threadIdx.x;
  int defAtC;
  if (tid < 0) {
    defAtC = n + 1;
    out[defAtC] = 0;
  } else {
    defAtC = n + 2;
    out[defAtC] = 1;
  }
  out[defAtC] = 2;
  int i = 0;
  do {
    out[i] = 3;
    i = i + 1;
  } while (i < n);
}

// CHECK-LABEL: "name": "daorder"
// CHECK-DAG: {"line": 11, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 14, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
// CHECK-DAG: {"line": 19, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 9, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 21, "column": 12, "class": "scalar"
// CHECK-DAG: {"name": "defAtC", "line": 8, "class": "affine"
// CHECK-DAG: {"name": "i", "line": 17, "class": "scalar"
