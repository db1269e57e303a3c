// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// reducible-subgraph.ll and incorrect-assertion-issue-170048.ll (the same
// graph; both check only that the analysis does not crash): the reducible
// cycle bb3 <-> bb4 sits inside a larger cycle whose join bb8 is not its
// header. Here the branch in bb5 is divergent; bb8 is its join.

__global__ void uniformity_analysis_crash(int *out, bool v0, bool v1) {
  bool v2 = threadIdx.x < 7;
  int x = 0;
  if (v0)
    goto bb1;
  goto bb2;
bb1:
  goto bb3;
bb3:
  if (v1)
    goto bb5;
  goto bb3;
bb5:
  if (v2) {
    x = 1;
    goto bb6;
  }
  x = 2;
  goto bb8;
bb6:
  goto bb2;
bb2:
  out[1] = 0;
bb8:
  out[x] = 0;
  goto bb3;
}

// CHECK-LABEL: "name": "uniformity_analysis_crash"
// CHECK-DAG: {"line": 32, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}21, 7]]
// CHECK-DAG: {"line": 11, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 17, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 21, "column": 7, "class": "affine"
