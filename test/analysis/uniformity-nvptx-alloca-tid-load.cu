// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/alloca-tid-load.ll: a
// value stored through a pointer to a local and loaded back is divergent. The
// local is address-taken, so the accesses are in the local space. Deliberate
// difference (memory is per block, docs/analysis.md): even a scalar stored
// into it loads back nonaffine, because the object is written.

__global__ void alloca_tid_load(int *out) {
  int a;
  int *pa = &a;
  *pa = threadIdx.x;
  int v = *pa;
  out[v] = 0;
}

__global__ void alloca_scalar_load(int *out, int n) {
  int b;
  int *pb = &b;
  *pb = n;
  int w = *pb;
  out[w] = 0;
}

// CHECK-LABEL: "name": "alloca_tid_load"
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "local"
// CHECK-DAG: {"line": 12, "column": 11, "kind": "load", "space": "local"
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "v", "line": 12, "class": "nonaffine"
// CHECK-LABEL: "name": "alloca_scalar_load"
// CHECK-DAG: {"line": 19, "column": 3, "kind": "store", "space": "local"
// CHECK-DAG: {"line": 20, "column": 11, "kind": "load", "space": "local"
// CHECK-DAG: {"line": 21, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "w", "line": 20, "class": "nonaffine"
