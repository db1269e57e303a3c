// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/workitem-expr.ll.
// Deliberate difference: LLVM calls tid >> 6, tid & 64 and tid | 63 uniform
// (and, for wave32, tid >> 5, tid & 32, tid | 31) because they are constant
// within a wavefront. The classification here is per thread block, where none
// of them is scalar or one linear function of threadIdx: all nonaffine.

__global__ void workitem_expr(int *out) {
  int tidx = threadIdx.x;
  int shr6 = tidx >> 6;
  int shr5 = tidx >> 5;
  int shr4 = tidx >> 4;
  int and63 = tidx & 63;
  int and64 = tidx & 64;
  int and32 = tidx & 32;
  int or63 = tidx | 63;
  int or31 = tidx | 31;
  out[shr6] = and64 + or63;
}

// CHECK-LABEL: "name": "workitem_expr"
// CHECK-DAG: {"line": 18, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "tidx", "line": 9, "class": "affine"
// CHECK-DAG: {"name": "shr6", "line": 10, "class": "nonaffine"
// CHECK-DAG: {"name": "shr5", "line": 11, "class": "nonaffine"
// CHECK-DAG: {"name": "shr4", "line": 12, "class": "nonaffine"
// CHECK-DAG: {"name": "and63", "line": 13, "class": "nonaffine"
// CHECK-DAG: {"name": "and64", "line": 14, "class": "nonaffine"
// CHECK-DAG: {"name": "and32", "line": 15, "class": "nonaffine"
// CHECK-DAG: {"name": "or63", "line": 16, "class": "nonaffine"
// CHECK-DAG: {"name": "or31", "line": 17, "class": "nonaffine"
