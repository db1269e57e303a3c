// RUN: %decoupler --analyze --report=json %s -- -Wno-unused-value | FileCheck %s
// In C++ `++j`, `x = v`, `x += v` and `(a, x)` are lvalues: reading one reads
// the variable it updated, not memory. (Found by the LLVM cross-check: `++j`
// in a condition used to be taken for a load.)

__global__ void lvalue_operators(int *out, int n, int m) {
  int j = 0;
  if (++j < n)
    out[j] = 1;
  int i = 0;
  do {
    out[i] = 2;
  } while (++i < m);
  int x = 0;
  if ((x = n) > 3)
    out[x] = 3;
  int y = threadIdx.x;
  if ((y += 2) < n)
    out[y] = 4;
  int z = (x, y);
  out[z] = 5;
}

// CHECK-LABEL: "name": "lvalue_operators"
// CHECK-NOT: "kind": "load"
// CHECK-DAG: {"line": 9, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 12, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 19, "column": 5, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 21, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 8, "column": 7, "class": "scalar"}
// CHECK-DAG: {"line": 13, "column": 12, "class": "scalar"}
// CHECK-DAG: {"line": 15, "column": 7, "class": "scalar"}
// CHECK-DAG: {"line": 18, "column": 7, "class": "affine"}
// CHECK-DAG: {"name": "j", "line": 7, "class": "scalar"}
// CHECK-DAG: {"name": "i", "line": 10, "class": "scalar"}
