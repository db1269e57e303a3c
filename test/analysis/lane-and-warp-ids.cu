// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Lane ids (tid % 32, tid & 31) and warp ids (tid / 32, tid >> 5) are not one
// linear function of threadIdx over the block: nonaffine, as in LLVM's
// uniformity analysis (both divergent there).

__global__ void lane_and_warp_ids(int *a) {
  int tid = threadIdx.x;
  int lane = tid % 32;
  int lane2 = tid & 31;
  int warp = tid / 32;
  int warp2 = tid >> 5;
  a[tid % 32] = 0;
  a[tid & 31] = 1;
  a[tid / 32] = 2;
  a[tid >> 5] = 3;
  a[threadIdx.x % warpSize] = 4;
}

// CHECK-LABEL: "name": "lane_and_warp_ids"
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "lane", "line": 8, "class": "nonaffine"
// CHECK-DAG: {"name": "lane2", "line": 9, "class": "nonaffine"
// CHECK-DAG: {"name": "warp", "line": 10, "class": "nonaffine"
// CHECK-DAG: {"name": "warp2", "line": 11, "class": "nonaffine"
