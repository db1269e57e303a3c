// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/diverge.ll, @loop and
// @lcssa: a loop with a lane-dependent (thread-dependent) exit.
//   int i = 0;
//   do { i++; } while (i < laneid);  // i here is uniform
//   return i == 10 ? 0 : 1;          // i here is divergent
// Inside the loop the threads still looping agree on i (scalar); after it i is
// nonaffine (temporal divergence). The lane id itself is nonaffine per block.

__global__ void loop(int *out) {
  int laneid = threadIdx.x % 32;
  int i = 0;
  do {
    i++;
    out[i] = 0;
  } while (i < laneid);
  if (i == 10)
    out[0] = 1;
}

__global__ void lcssa(int *out) {
  int tid = threadIdx.x;
  int i = 0;
  do {
    i++;
    out[i] = 0;
  } while (i < tid);
  if (i == 10)
    out[0] = 1;
  out[i + 1] = 2;
}

// CHECK-LABEL: "name": "loop"
// CHECK-DAG: {"line": 15, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 12, "class": "nonaffine"
// CHECK-DAG: {"line": 17, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"name": "laneid", "line": 11, "class": "nonaffine"
// CHECK-DAG: {"name": "i", "line": 12, "class": "nonaffine"
// CHECK-LABEL: "name": "lcssa"
// CHECK-DAG: {"line": 26, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 30, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 27, "column": 12, "class": "affine"
// CHECK-DAG: {"line": 28, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"name": "i", "line": 23, "class": "nonaffine"
