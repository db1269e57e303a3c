// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// __ldg reads memory: its result from a per-thread address is nonaffine.

__global__ void ldg(int *out, const int *__restrict__ in,
                    const float *__restrict__ f) {
  int tid = threadIdx.x;
  int v = __ldg(&in[tid]);
  out[tid] = v;
  out[v] = 1;
  float g = __ldg(f + tid);
}

// CHECK-LABEL: "name": "ldg"
// CHECK-DAG: {"line": 8, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 9, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "v", "line": 7, "class": "nonaffine"
// CHECK-DAG: {"name": "g", "line": 10, "class": "nonaffine"
