// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Accesses inside callees are reported in every kernel that calls them, with
// "function", classified for that kernel's arguments. load_at(in, 0) reads a
// scalar address of a read-only parameter, so the value passed on is scalar.

__device__ void store_at(float *p, int i, float v) {
  p[i] = v;
}

__device__ float load_at(const float *p, int i) {
  return p[i];
}

__global__ void per_thread(float *out, const float *in) {
  store_at(out, threadIdx.x, load_at(in, threadIdx.x));
}

__global__ void per_block(float *out, const float *in) {
  store_at(out, blockIdx.x, load_at(in, 0));
}

// CHECK-LABEL: "name": "per_thread"
// CHECK-DAG: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"function": "store_at"
// CHECK-DAG: {"line": 11, "column": 10, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"function": "load_at"
// CHECK-DAG: {"name": "v", "line": 6, "class": "nonaffine"{{.*}}"function": "store_at"
// CHECK-LABEL: "name": "per_block"
// CHECK-DAG: {"line": 7, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0{{.*}}"function": "store_at"
// CHECK-DAG: {"line": 11, "column": 10, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0{{.*}}"function": "load_at"
// CHECK-DAG: {"name": "v", "line": 6, "class": "scalar"{{.*}}"function": "store_at"
