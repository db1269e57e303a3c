// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Warp intrinsics give nonaffine results, even of scalar operands: a shuffle
// or vote differs between the warps of a block, and clock64/__activemask are
// not the same in all threads.

__global__ void warp_intrinsics(int *out, int n) {
  int tid = threadIdx.x;
  int s = __shfl_sync(0xffffffffu, n, 0);
  int d = __shfl_down_sync(0xffffffffu, tid, 1);
  unsigned b = __ballot_sync(0xffffffffu, tid < n);
  unsigned m = __activemask();
  long long t = clock64();
  int x = __shfl_xor_sync(0xffffffffu, tid, 16);
  out[s] = 0;
  out[b] = 1;
}

// CHECK-LABEL: "name": "warp_intrinsics"
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "s", "line": 8, "class": "nonaffine"
// CHECK-DAG: {"name": "d", "line": 9, "class": "nonaffine"
// CHECK-DAG: {"name": "b", "line": 10, "class": "nonaffine"
// CHECK-DAG: {"name": "m", "line": 11, "class": "nonaffine"
// CHECK-DAG: {"name": "t", "line": 12, "class": "nonaffine"
// CHECK-DAG: {"name": "x", "line": 13, "class": "nonaffine"
