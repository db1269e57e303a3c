// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// irreducible-1.ll: the unstructured loop of the NVPTX test, entered through a
// divergent branch (in the original, entry_cond is an argument of a non-kernel
// function). The two entries and the body are joins of that branch, so i and j
// are not scalar inside the cycle either; body is also a join of the switch
// (nonaffine condition), so j and i depend on both branches: affine with both
// conditions listed, or nonaffine.

__global__ void unstructured_loop(int *out, int entry_cond) {
  int tid = threadIdx.x;
  int i = 0, j;
  if (tid < entry_cond)
    goto entry_2;
entry_1:
  out[i + 100] = 3;
  j = i + 1;
  goto body;
entry_2:
  j = i + 2;
body:
  out[j + 200] = 4;
  i = j;
  switch (tid / i) {
  case 1: goto entry_1;
  case 2: goto entry_2;
  default: break;
  }
  if (i == 5)
    out[0] = 1;
  out[i] = 2;
}

// CHECK-LABEL: "name": "unstructured_loop"
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "{{nonaffine"|affine", "stride_bytes": null.*\[24, 11\]}}
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "{{nonaffine"|affine", "stride_bytes": null.*\[24, 11\]}}
// CHECK-DAG: {"line": 31, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 24, "column": 11, "class": "nonaffine"
// CHECK-DAG: {"line": 29, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"name": "i", "line": 12, "class": "nonaffine"
// CHECK-DAG: {"name": "j", "line": 12, "class": "{{nonaffine"|affine", "divergent_conditions": .*\[24, 11\]}}
