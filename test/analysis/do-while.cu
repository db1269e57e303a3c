// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// do-while: the condition is a branch at its position after `while (`. With a
// scalar condition the counter is scalar after the loop; with a divergent one
// it is scalar inside and nonaffine after.

__global__ void do_while(int *out, int n) {
  int i = 0;
  do {
    out[i] = 0;
    i += 4;
  } while (i < n);
  out[i] = 1;
  int j = 0;
  do {
    out[j + 1] = 2;
    j++;
  } while (j < (int)threadIdx.x);
  out[j + 2] = 3;
}

// CHECK-LABEL: "name": "do_while"
// CHECK-DAG: {"line": 9, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 15, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 18, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 11, "column": 12, "class": "scalar"
// CHECK-DAG: {"line": 17, "column": 12, "class": "affine"
// CHECK-DAG: {"name": "i", "line": 7, "class": "scalar"
// CHECK-DAG: {"name": "j", "line": 13, "class": "nonaffine"
