// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/always_uniform.ll,
// @readfirstlane and @ballot. Deliberate difference: LLVM calls
// readfirstlane(tid) and a ballot uniform because they are the same in every
// lane of a wavefront; the CUDA counterparts (__shfl_sync from lane 0,
// __ballot_sync) differ between the warps of a block, and docs/analysis.md
// classifies every warp intrinsic as nonaffine.

__global__ void readfirstlane(int *out) {
  int id_x = threadIdx.x;
  int first_lane = __shfl_sync(0xffffffffu, id_x, 0);
  out[first_lane] = 0;
}

__global__ void ballot(int *out, bool x) {
  unsigned b = __ballot_sync(0xffffffffu, x);
  out[b] = 0;
}

// CHECK-LABEL: "name": "readfirstlane"
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "id_x", "line": 10, "class": "affine"
// CHECK-DAG: {"name": "first_lane", "line": 11, "class": "nonaffine"
// CHECK-LABEL: "name": "ballot"
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "b", "line": 16, "class": "nonaffine"
