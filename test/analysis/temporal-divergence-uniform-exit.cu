// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// The loop is left only through a uniform branch, but a divergent branch
// inside it (continue for some threads) makes threads reach that exit in
// different iterations: thread tid leaves with cnt = max(tid, n). A value
// defined in the loop is therefore nonaffine after it (temporal divergence:
// "threads leave it after different numbers of iterations"), although no
// divergent branch has a successor outside the loop. LLVM reports such a loop
// under "CYCLES WITH DIVERGENT EXIT" (see reducible-headers.ll, ee.div).
// Inside the loop cnt is scalar.

__global__ void late_exit(int *out, int n) {
  int tid = threadIdx.x;
  int cnt = 0;
  for (;;) {
    cnt = cnt + 1;
    out[cnt] = 0;
    if (tid > cnt)
      continue;
    if (cnt >= n)
      break;
  }
  out[cnt + 1] = 1;
}

// CHECK-LABEL: "name": "late_exit"
// CHECK-DAG: {"line": 16, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 17, "column": 9, "class": "affine"
// CHECK-DAG: {"line": 19, "column": 9, "class": "scalar"
// CHECK-DAG: {"name": "cnt", "line": 13, "class": "nonaffine"
