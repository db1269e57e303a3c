// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Locals whose address is taken, or that are passed by non-const reference,
// are memory: their reads are loads from the local space, and as written
// objects their values are nonaffine. A local that is not address-taken stays
// a value. They are still locals, so they are listed among the variables;
// read back from written memory, their class is nonaffine.

__device__ void bump(int &r) { r += 2; }

__global__ void address_taken(int *out, int n) {
  int x = n;
  int *px = &x;
  *px = *px + 1;
  out[x + threadIdx.x] = 0;
  int c = 0;
  bump(c);
  out[c] = 1;
  int u = n;
  out[u + threadIdx.x] = 2;
}

// CHECK-LABEL: "name": "address_taken"
// CHECK-DAG: {"line": 8, "column": 32, "kind": "load", "space": "local"{{.*}}"function": "bump"
// CHECK-DAG: {"line": 8, "column": 32, "kind": "store", "space": "local"{{.*}}"function": "bump"
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "local"
// CHECK-DAG: {"line": 13, "column": 9, "kind": "load", "space": "local"
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 14, "column": 7, "kind": "load", "space": "local"
// CHECK-DAG: {"line": 17, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 17, "column": 7, "kind": "load", "space": "local"
// CHECK-DAG: {"line": 19, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"name": "x", "line": 11, "class": "nonaffine"
// CHECK-DAG: {"name": "c", "line": 15, "class": "nonaffine"
// CHECK-DAG: {"name": "u", "line": 18, "class": "scalar"
