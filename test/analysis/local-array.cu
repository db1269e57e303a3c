// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Local arrays are in the "local" space. The kernel writes buf, so a value
// loaded from it is nonaffine even at a scalar index.

__global__ void local_array(int *out, int n) {
  int buf[8];
  for (int i = 0; i < 8; i++)
    buf[i] = i * n;
  int v = buf[3];
  out[v + threadIdx.x] = 0;
  float acc[4];
  acc[threadIdx.x % 4] = 1.0f;
  out[1] = (int)acc[2];
}

// CHECK-LABEL: "name": "local_array"
// CHECK-DAG: {"line": 8, "column": 5, "kind": "store", "space": "local"
// CHECK-DAG: {"line": 9, "column": 11, "kind": "load", "space": "local"
// CHECK-DAG: {"line": 10, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "local"
// CHECK-DAG: {"line": 13, "column": 17, "kind": "load", "space": "local"
// CHECK-DAG: {"name": "v", "line": 9, "class": "nonaffine"
