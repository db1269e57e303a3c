// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/hidden_diverge.ll:
//   entry: if (tid < 0) goto C; else goto B;   // divergent
//   B:     if (n < 0) goto C; else goto merge; // uniform
//   C:     phi.var.hidden = phi [1, entry], [2, B]  -> divergent
//   merge: phi.ipd = phi [a, B], [b, C]             -> divergent
// C is a join of the divergent branch although one of its predecessors is a
// uniform branch; merge, the immediate post-dominator, is one too.

__global__ void hidden_diverge(int *out, int n, int a, int b) {
  int tid = threadIdx.x;
  int hidden, ipd;
  if (tid < 0) {
    hidden = 1;
    goto C;
  }
  if (n < 0) {
    hidden = 2;
    goto C;
  }
  ipd = a;
  goto merge;
C:
  out[hidden] = 0;
  ipd = b;
merge:
  out[ipd] = 1;
}

// CHECK-LABEL: "name": "hidden_diverge"
// CHECK-DAG: {"line": 24, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}13, 7]]
// CHECK-DAG: {"line": 27, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}13, 7]]
// CHECK-DAG: {"line": 13, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 17, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "hidden", "line": 12, "class": "affine"
// CHECK-DAG: {"name": "ipd", "line": 12, "class": "affine"
