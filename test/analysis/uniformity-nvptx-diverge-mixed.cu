// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/diverge.ll, @mixed:
//   c = 0;
//   if (threadIdx.z >= 5) {  // divergent
//     c = (n < 0 ? a : b);   // c here is uniform because n is uniform
//   }
//   return c;                // c here is divergent (sync dependent)
// Only the divergent branch selects between the tuples.

__global__ void mixed(int *out, int n, int a, int b) {
  int c = 0;
  if (threadIdx.z >= 5) {
    if (n < 0)
      c = a;
    else
      c = b;
    out[c] = 1;
  }
  out[c] = 2;
}

// CHECK-LABEL: "name": "mixed"
// CHECK-DAG: {"line": 17, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 19, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 12, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 13, "column": 9, "class": "scalar"
// CHECK-DAG: {"name": "c", "line": 11, "class": "affine"
