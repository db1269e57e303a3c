// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/diverge.ll, @sync:
//   c = a; if (threadIdx.y < 5) c = b; return c;
// The branch is divergent (data dependent on tid.y); c is sync dependent on it:
// two scalar definitions meet at the join, a divergent affine tuple.

__global__ void sync_dependence(int *out, int a, int b) {
  int c = a;
  if (threadIdx.y < 5)
    c = b;
  out[c] = 0;
}

// CHECK-LABEL: "name": "sync_dependence"
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
// CHECK-DAG: {"line": 9, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "c", "line": 8, "class": "affine"{{.*}}"divergent_conditions": {{\[\[}}9, 7]]
