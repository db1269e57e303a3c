// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// reducible-headers.ll, @header_label_2: a reducible loop (header H1) with a
// divergent branch in H2 whose sides meet in D. B, entered from H1 or from the
// divergent branch, is not a join: the label coming around through the header
// must not be propagated into the loop body. bb_phi is scalar, dd_phi a
// divergent affine tuple.

__global__ void header_label_2(int *out, int a, int b) {
  int tid = threadIdx.x;
  int bb, dd;
H1:
  if (a < 0) {
    bb = a;
    goto B;
  }
  if (tid < 0) {
    bb = b;
    goto B;
  }
  dd = b;
  goto D;
B:
  out[bb] = 0;
  dd = a;
D:
  out[dd] = 1;
  if (a >= 0)
    goto H1;
}

// CHECK-LABEL: "name": "header_label_2"
// CHECK-DAG: {"line": 24, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 27, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}17, 7]]
// CHECK-DAG: {"line": 13, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 17, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "bb", "line": 11, "class": "scalar"
