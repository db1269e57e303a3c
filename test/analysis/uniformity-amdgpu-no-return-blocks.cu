// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/no-return-blocks.ll: a
// kernel that never returns (the post-dominator tree has no root). The loads
// through the per-thread pointer are affine; the branch on a loaded value is
// nonaffine.

__global__ void no_return_blocks(const float *arg) {
  const float *p = arg + threadIdx.x;
  float t = *p;
  if (t < 0.0f)
    goto bb1;
bb2:
  t = *p;
bb1:
  t = *p;
  goto bb2;
}

// CHECK-LABEL: "name": "no_return_blocks"
// CHECK-DAG: {"line": 9, "column": 13, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 13, "column": 7, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 15, "column": 7, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 10, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"name": "p", "line": 8, "class": "affine"
// CHECK-DAG: {"name": "t", "line": 9, "class": "nonaffine"
