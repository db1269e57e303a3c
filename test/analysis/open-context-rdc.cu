// RUN: %decoupler --analyze --report=json %s -- -fgpu-rdc | FileCheck %s --check-prefix=RDC
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=WHOLE
// Under relocatable device code (clang's -fgpu-rdc, nvcc's -rdc=true) other
// translation units may call a __device__ function with external linkage, with
// any arguments: it gets the unknown context as well as its visible callers'.
// Functions with internal linkage (static, an unnamed namespace) can only be
// called from this file and keep the precise result; so does everything
// without -fgpu-rdc (issue 13, class 4).

__device__ void external(int *p, int i) { atomicAdd(&p[i], 1); }
static __device__ void internal(int *p, int i) { atomicAdd(&p[i], 1); }
namespace {
__device__ void unnamed(int *p, int i) { atomicAdd(&p[i], 1); }
}
__device__ inline void inlined(int *p, int i) { p[i] = 0; }

__global__ void calls(int *p) {
  external(p, 0);
  internal(p, 1);
  unnamed(p, 2);
  inlined(p, 3);
}

// RDC-LABEL: "name": "calls"
// RDC-DAG: {"line": 10, "column": 43, "kind": "atomic", "space": "unknown", "class": "nonaffine", "stride_bytes": null, "function": "external"}
// RDC-DAG: {"line": 11, "column": 50, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0, "function": "internal"}
// RDC-DAG: {"line": 13, "column": 42, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0, "function": "unnamed"}
// An inline function with external linkage may be the copy the device
// linker keeps for other translation units' calls.
// RDC-DAG: {"line": 15, "column": 49, "kind": "store", "space": "unknown", "class": "nonaffine", "stride_bytes": null, "function": "inlined"}

// WHOLE-LABEL: "name": "calls"
// WHOLE-DAG: {"line": 10, "column": 43, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0, "function": "external"}
// WHOLE-DAG: {"line": 11, "column": 50, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0, "function": "internal"}
// WHOLE-DAG: {"line": 13, "column": 42, "kind": "atomic", "space": "global", "class": "scalar", "stride_bytes": 0, "function": "unnamed"}
// WHOLE-DAG: {"line": 15, "column": 49, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0, "function": "inlined"}
