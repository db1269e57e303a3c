// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// A callee reached twice from one kernel with different argument classes is
// reported once, with the join of the classes (scalar and affine: affine).

__device__ void put(int *p, int i) { p[i] = 0; }

__global__ void joined(int *a, int n) {
  put(a, n);
  put(a, threadIdx.x);
}

// CHECK-LABEL: "name": "joined"
// CHECK-DAG: {"line": 6, "column": 38, "kind": "store", "space": "global", "class": "affine"{{.*}}"function": "put"
// CHECK-DAG: {"name": "i", "line": 6, "class": "affine"{{.*}}"function": "put"
// NEG-NOT: {"line": 6, "column": 38, "kind": "store", "space": "global", "class": "scalar"
