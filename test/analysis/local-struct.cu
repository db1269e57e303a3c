// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// A local struct (not address-taken) is tracked as one value: the join of
// everything stored into any of its fields. It is not memory.

struct P2 { int a; int b; };

__global__ void local_struct(int *out, int n, int m) {
  P2 p;
  p.a = n;
  p.b = threadIdx.x;
  out[p.a] = 0;
  P2 q;
  q.a = n;
  q.b = m;
  out[q.b] = 1;
  P2 r;
  r.a = n;
  r.b = out[7];
  out[r.a + 8] = 2;
}

// CHECK-LABEL: "name": "local_struct"
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine"
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 20, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "p", "line": 9, "class": "affine"
// CHECK-DAG: {"name": "q", "line": 13, "class": "scalar"
// CHECK-DAG: {"name": "r", "line": 17, "class": "nonaffine"
// NEG-NOT: "space": "local"
