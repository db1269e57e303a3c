// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A call without a body gives nonaffine, whatever its arguments; known pure
// math builtins give scalar of scalar arguments.

extern __device__ int opaque(int x);

__global__ void no_body(int *a, float *f, int n) {
  int o = opaque(n);
  a[o] = 0;
  int r = (int)sqrtf((float)n);
  a[r] = 1;
  int e = abs(n) + (int)floorf(logf((float)n));
  a[e] = 2;
}

// CHECK-LABEL: "name": "no_body"
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 11, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "o", "line": 8, "class": "nonaffine"
// CHECK-DAG: {"name": "r", "line": 10, "class": "scalar"
// CHECK-DAG: {"name": "e", "line": 12, "class": "scalar"
