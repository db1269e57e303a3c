// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/kernel-args.ll: kernel
// arguments of every type (pointer, float, int, struct by value) are uniform.
// Deliberate difference for non-kernel functions (LLVM: arguments divergent):
// a device function's parameters take the classes of the call's arguments.

struct Params { int n; float scale; };

__device__ void test_c(int *out, int x) { out[x] = 0; }

__global__ void test_amdgpu_kernel(const int *arg0, float arg1, int arg2,
                                   Params p, int *out) {
  out[arg2] = 0;
  out[p.n] = 1;
  out[(int)arg1] = 2;
  test_c(out, arg2);
}

__global__ void divergent_call(int *out) {
  test_c(out, threadIdx.x);
}

// CHECK-LABEL: "name": "test_amdgpu_kernel"
// CHECK-DAG: {"line": 9, "column": 43, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0{{.*}}"function": "test_c"
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 15, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"name": "arg0", "line": 11, "class": "scalar"
// CHECK-DAG: {"name": "arg1", "line": 11, "class": "scalar"
// CHECK-DAG: {"name": "arg2", "line": 11, "class": "scalar"
// CHECK-DAG: {"name": "p", "line": 12, "class": "scalar"
// CHECK-DAG: {"name": "x", "line": 9, "class": "scalar"{{.*}}"function": "test_c"
// CHECK-LABEL: "name": "divergent_call"
// CHECK-DAG: {"line": 9, "column": 43, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4{{.*}}"function": "test_c"
// CHECK-DAG: {"name": "x", "line": 9, "class": "affine"{{.*}}"function": "test_c"
