// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Pointer values keep their strides in bytes through arithmetic and casts:
// (char*)p + 4*tid dereferenced as int* has stride 4, a char* indexed by tid
// stride 1. A dereference begins at its `*`.

__global__ void pointer_arithmetic(int *p, int n) {
  int tid = threadIdx.x;
  *(int *)((char *)p + 4 * tid) = 0;
  int *q = (int *)((char *)p + 4 * tid);
  *q = 1;
  *(p + tid) = 2;
  *(p + 2 * tid + n) = 3;
  char *c = (char *)p;
  c[tid] = 4;
  ((short *)p)[tid] = 5;
  ((double *)p)[tid] = 6.0;
  int *r = &p[tid];
  r[n] = 7;
  int *s = p + n;
  s[0] = 8;
}

// CHECK-LABEL: "name": "pointer_arithmetic"
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 1
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 2
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 8
// CHECK-DAG: {"line": 18, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 20, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "q", "line": 9, "class": "affine"{{.*}}"strides": [4, 0, 0]
// CHECK-DAG: {"name": "c", "line": 13, "class": "scalar"
// CHECK-DAG: {"name": "r", "line": 17, "class": "affine"{{.*}}"strides": [4, 0, 0]
// CHECK-DAG: {"name": "s", "line": 19, "class": "scalar"
