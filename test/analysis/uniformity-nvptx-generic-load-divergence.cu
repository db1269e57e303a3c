// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/
// generic-load-divergence.ll. Uniform case: a pointer that is a kernel
// parameter on one side of a uniform branch and loaded from a global variable
// on the other is uniform; the load through it is at a scalar address of an
// object the analysis cannot trace to one declaration (space "unknown").
// Divergent case: the address depends on tid, the loaded value is nonaffine.

__device__ int *g1;

__global__ void uniform_generic_ptr_phi_load(const int *p, int n, int *out) {
  const int *ptr;
  if (n > 0)
    ptr = p;
  else
    ptr = g1;
  int v = *ptr;
  out[0] = v;
}

__global__ void divergent_generic_load(int *base, int *out) {
  int *p = base + threadIdx.x;
  int v = *p;
  out[v] = 0;
}

// CHECK-LABEL: "name": "uniform_generic_ptr_phi_load"
// CHECK-DAG: {"line": 16, "column": 11, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 17, "column": 11, "kind": "load", "space": "unknown", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 13, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "ptr", "line": 12, "class": "scalar"
// CHECK-LABEL: "name": "divergent_generic_load"
// CHECK-DAG: {"line": 23, "column": 11, "kind": "load", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 24, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "v", "line": 23, "class": "nonaffine"
