// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/
// divergent-cycle-exit-join.ll. LLVM currently (a known bug, documented in
// that test) calls exit_phi uniform. It is divergent: thread 0 leaves through
// the divergent exit with 1 in the first iteration, the others through the
// uniform exit with 0 in the second. The exit block is a join of the
// divergent branch (through the loop header), so exit_phi is a divergent
// affine tuple. Inside the loop ctr is scalar.

__global__ void constant_phi_at_cycle_exit(int *out) {
  int tid = threadIdx.x;
  int ctr = 0, exit_phi;
loop:
  if (!(ctr < 1)) {
    exit_phi = 0;
    goto exit_;
  }
  if (tid == 0) {
    exit_phi = 1;
    goto exit_;
  }
  ctr = 1;
  goto loop;
exit_:
  out[exit_phi] = 0;
}

// CHECK-LABEL: "name": "constant_phi_at_cycle_exit"
// CHECK-DAG: {"line": 25, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}18, 7]]
// CHECK-DAG: {"line": 14, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 18, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "ctr", "line": 12, "class": "scalar"
// CHECK-DAG: {"name": "exit_phi", "line": 12, "class": "affine"
