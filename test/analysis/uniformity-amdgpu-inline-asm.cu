// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/inline-asm.ll: the
// output of inline assembly is divergent. It is none of the scalar or affine
// sources of docs/analysis.md, so it is nonaffine (the AMDGPU-only case of an
// SGPR output constraint has no PTX counterpart).

__global__ void inline_asm(int *out, int n) {
  int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  int v;
  asm("add.s32 %0, %1, 1;" : "=r"(v) : "r"(n));
  out[lane] = 0;
  out[v] = 1;
}

// CHECK-LABEL: "name": "inline_asm"
// CHECK-DAG: {"line": 12, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"name": "lane", "line": 8, "class": "nonaffine"
// CHECK-DAG: {"name": "v", "line": 10, "class": "nonaffine"
