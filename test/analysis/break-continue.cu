// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A break under a divergent condition is a divergent loop exit: the counter is
// scalar inside the loop and nonaffine after it. A break under a scalar
// condition is not. A continue under a divergent condition does not leave the
// loop: the counter stays scalar. in[] is only read, so in[i] is scalar.

__global__ void break_divergent(const int *in, int *out, int n) {
  int tid = threadIdx.x;
  int i;
  for (i = 0; i < n; i++) {
    if (in[i] == tid)
      break;
    out[i] = 0;
  }
  out[i + 64] = 1;
}

__global__ void break_uniform(const int *in, int *out, int n, int key) {
  int i;
  for (i = 0; i < n; i++) {
    if (in[i] == key)
      break;
  }
  out[i] = 0;
}

__global__ void continue_divergent(int *out, int n) {
  int tid = threadIdx.x;
  for (int i = 0; i < n; i++) {
    if (tid < i)
      continue;
    out[i] = 0;
  }
}

// CHECK-LABEL: "name": "break_divergent"
// CHECK-DAG: {"line": 11, "column": 9, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 13, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 10, "column": 15, "class": "scalar"
// CHECK-DAG: {"line": 11, "column": 9, "class": "affine"
// CHECK-DAG: {"name": "i", "line": 9, "class": "nonaffine"
// CHECK-LABEL: "name": "break_uniform"
// CHECK-DAG: {"line": 21, "column": 9, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 24, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 21, "column": 9, "class": "scalar"
// CHECK-DAG: {"name": "i", "line": 19, "class": "scalar"
// CHECK-LABEL: "name": "continue_divergent"
// CHECK-DAG: {"line": 32, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 29, "column": 19, "class": "scalar"
// CHECK-DAG: {"line": 30, "column": 9, "class": "affine"
// CHECK-DAG: {"name": "i", "line": 29, "class": "scalar"
