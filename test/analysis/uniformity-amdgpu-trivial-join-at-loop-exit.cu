// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/
// trivial-join-at-loop-exit.ll: the block after a divergent loop is also
// reached around the loop through a uniform branch; only one path leaves the
// divergent branch, so it is not a join and the guard is scalar.

__global__ void trivial_join_at_loop_exit(int *out, bool uni) {
  int tid = threadIdx.x;
  bool i5 = tid == -1;
  int iv = 7;
  bool guard;
  if (uni) {
    do {
      iv = iv - 1;
      out[iv] = 0;
    } while (!i5);
    guard = true;
  } else {
    guard = false;
  }
  if (guard)
    out[1] = 1;
}

// CHECK-LABEL: "name": "trivial_join_at_loop_exit"
// CHECK-DAG: {"line": 15, "column": 7, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 12, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 16, "column": 14, "class": "affine"
// CHECK-DAG: {"line": 21, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "guard", "line": 11, "class": "scalar"
// CHECK-DAG: {"name": "iv", "line": 10, "class": "scalar"
