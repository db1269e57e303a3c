// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/join-at-loop-exit.ll:
// a loop left through a divergent exit (on i5) and a uniform one (iv == 0);
// the exits meet after the loop, where the guard chosen on each exit edge is a
// divergent affine tuple selected by the divergent exit, and so is the branch
// on it. Inside the loop iv is scalar.

__global__ void join_at_loop_exit(int *out) {
  int tid = threadIdx.x;
  bool i5 = tid == -1;
  int iv = 7;
  bool guard;
  for (;;) {
    if (!i5) {
      guard = true;
      break;
    }
    iv = iv - 1;
    out[iv] = 0;
    if (iv == 0) {
      guard = false;
      break;
    }
  }
  if (guard)
    out[1] = 1;
}

// CHECK-LABEL: "name": "join_at_loop_exit"
// CHECK-DAG: {"line": 19, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 14, "column": 9, "class": "affine"
// CHECK-DAG: {"line": 20, "column": 9, "class": "scalar"
// CHECK-DAG: {"line": 25, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "guard", "line": 12, "class": "affine"{{.*}}"divergent_conditions": {{\[\[}}14, 9]]
