// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// reducible-headers.ll, @header_label_1, with a loop-carried counter cnt.
// The divergent branch T (tid > cnt) has both successors inside the loop: back
// to the header H, or on through U to P and Q. The loop is left only through
// the uniform branch in Q, but threads take it in different iterations (those
// that went back from T leave later), so the exit is reached by divergent paths
// (LLVM: "CYCLES WITH DIVERGENT EXIT") and a value defined in the loop is
// nonaffine after it (LLVM: ee.div divergent). Inside the loop P is not a join
// (the header's label is not propagated into the body): pp_phi and qq_uni are
// scalar, as in LLVM.

__global__ void header_label_1(int *out, int a, int b) {
  int tid = threadIdx.x;
  int cnt = 0, pp_phi, qq_uni;
H:
  cnt = cnt + 1;
  if (a < 0) {
    pp_phi = a;
    goto P;
  }
  if (tid > cnt)
    goto H;
  pp_phi = b;
P:
  out[pp_phi] = 0;
  qq_uni = pp_phi + cnt;
  out[qq_uni] = 1;
  if (cnt < b)
    goto H;
  out[qq_uni + 1] = 2;
}

// CHECK-LABEL: "name": "header_label_1"
// CHECK-DAG: {"line": 26, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 28, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 31, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 18, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 22, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 29, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "pp_phi", "line": 15, "class": "scalar"
// CHECK-DAG: {"name": "qq_uni", "line": 15, "class": "nonaffine"
