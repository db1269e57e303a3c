// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Atomics are reported with kind "atomic" at the position of the call, with
// the class and stride of their address; their results are nonaffine (all
// functions, all scopes).

__global__ void atomics(int *count, int *hist, unsigned *flags, int *out, int n) {
  __shared__ int s_count;
  int tid = threadIdx.x;
  int slot = atomicAdd(&count[0], 1);
  out[slot] = tid;
  atomicAdd(&hist[tid], 1);
  atomicAdd(&hist[tid % 16], 1);
  int old = atomicCAS(&count[1], 0, n);
  atomicMax(&count[blockIdx.x], tid);
  atomicExch(&flags[tid * 2], 1u);
  atomicAdd_block(&count[2], 1);
  atomicAdd_system(&count[3], 1);
  atomicAdd(&s_count, 1);
  int m = atomicMin(&hist[n], 0);
}

// CHECK-LABEL: "name": "atomics"
// CHECK-DAG: {"line": 9, "column": 14, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 11, "column": 3, "kind": "atomic", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 12, "column": 3, "kind": "atomic", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 13, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 14, "column": 3, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 15, "column": 3, "kind": "atomic", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"line": 16, "column": 3, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 17, "column": 3, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 18, "column": 3, "kind": "atomic", "space": "shared", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 19, "column": 11, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "slot", "line": 9, "class": "nonaffine"
// CHECK-DAG: {"name": "old", "line": 13, "class": "nonaffine"
// CHECK-DAG: {"name": "m", "line": 19, "class": "nonaffine"
