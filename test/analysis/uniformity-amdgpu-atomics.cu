// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/atomics.ll: the result
// of an atomic exchange or compare-and-swap is divergent even at a uniform
// address (here: nonaffine; the access itself is scalar).

__global__ void test1(int *ptr, int val) {
  int orig = atomicExch(ptr, val);
  *ptr = orig;
}

__global__ void test2(int *ptr, int cmp, int nw) {
  int orig = atomicCAS(ptr, cmp, nw);
  *ptr = orig;
}

// CHECK-LABEL: "name": "test1"
// CHECK-DAG: {"line": 7, "column": 14, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "orig", "line": 7, "class": "nonaffine"
// CHECK-LABEL: "name": "test2"
// CHECK-DAG: {"line": 12, "column": 14, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "orig", "line": 12, "class": "nonaffine"
