// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/
// divergent-cycle-exit-phi.ll.
// divergent_cycle_exit_phi, nested_cycle_exit_phi: a different constant on
// each exit edge, one exit divergent: acc is divergent (LLVM currently reports
// it uniform, the bug of divergent-cycle-exit-join.ll; here the exit is a join
// of the divergent branch, so acc is a divergent affine tuple).
// uniform_cycle_exit_phi: the same value along every exit (assigned once,
// before the loop): scalar.
// uniform_multi_exit_cycle_phi: the exit reached only through uniform branches
// is not a join of the divergent branch (which leaves through its own exit):
// scalar.

__global__ void divergent_cycle_exit_phi(int *out, int n) {
  int tid = threadIdx.x;
  int iv = 0, acc;
  for (;;) {
    if (iv >= n) {
      acc = 0;
      break;
    }
    if (tid == 0) {
      acc = 1;
      break;
    }
    iv = iv + 1;
  }
  out[acc] = 0;
}

__global__ void uniform_cycle_exit_phi(int *out, int n) {
  int tid = threadIdx.x;
  int iv = 0, acc = 7;
  for (;;) {
    if (iv >= n)
      break;
    if (tid == 0)
      break;
    iv = iv + 1;
  }
  out[acc] = 0;
}

__global__ void nested_cycle_exit_phi(int *out) {
  int tid = threadIdx.x;
  int acc;
  for (int o = 0;; o++) {
    if (!(o < 2)) {
      acc = 0;
      break;
    }
    for (int i = 0; i < 2;) {
      i = i + 1;
      if (tid == 0) {
        acc = 1;
        goto done;
      }
    }
  }
done:
  out[acc] = 0;
}

__global__ void uniform_multi_exit_cycle_phi(int *out, int n) {
  int tid = threadIdx.x;
  int acc;
  for (;;) {
    if (!(n < 3)) {
      acc = 0;
      break;
    }
    if (tid == 0)
      return;
    if (n > 1) {
      acc = 1;
      break;
    }
  }
  out[acc] = 0;
}

// CHECK-LABEL: "name": "divergent_cycle_exit_phi"
// CHECK-DAG: {"line": 28, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}22, 9]]
// CHECK-DAG: {"line": 18, "column": 9, "class": "scalar"
// CHECK-DAG: {"line": 22, "column": 9, "class": "affine"
// CHECK-LABEL: "name": "uniform_cycle_exit_phi"
// CHECK-DAG: {"line": 41, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "acc", "line": 33, "class": "scalar"
// CHECK-LABEL: "name": "nested_cycle_exit_phi"
// CHECK-DAG: {"line": 61, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}54, 11]]
// CHECK-DAG: {"line": 48, "column": 9, "class": "scalar"
// CHECK-DAG: {"line": 52, "column": 21, "class": "scalar"
// CHECK-LABEL: "name": "uniform_multi_exit_cycle_phi"
// CHECK-DAG: {"line": 79, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 72, "column": 9, "class": "affine"
// CHECK-DAG: {"name": "acc", "line": 66, "class": "scalar"
