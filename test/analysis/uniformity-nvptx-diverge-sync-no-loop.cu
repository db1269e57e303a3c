// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/diverge.ll,
// @sync_no_loop: a value defined before a divergent branch and used after its
// join has a single reaching definition, so it is not sync dependent.

__global__ void sync_no_loop(int *out, int arg) {
  int x = arg + 1;
  if (threadIdx.x >= 10)
    out[1] = 0;
  else
    out[2] = 0;
  int y = x + 2;
  out[y] = 3;
}

// CHECK-LABEL: "name": "sync_no_loop"
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 9, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "x", "line": 8, "class": "scalar"
// CHECK-DAG: {"name": "y", "line": 13, "class": "scalar"
// NEG-NOT: divergent_conditions
