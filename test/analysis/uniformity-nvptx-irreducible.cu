// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/irreducible.ll: an
// unstructured loop with two entries (entry_1, entry_2) built with goto,
// entered uniformly (entry_cond is a kernel parameter) and left through a
// switch on tid / i (nonaffine). i is defined in the cycle, so after the
// divergent exit it is nonaffine and so is the branch on i == 5. Inside the
// cycle, body is a join of the switch (reached through entry_1 and entry_2
// with different definitions of j): j depends on the switch's condition.

__global__ void unstructured_loop(int *out, int entry_cond) {
  int tid = threadIdx.x;
  int i = 0, j;
  if (entry_cond)
    goto entry_2;
entry_1:
  j = i + 1;
  goto body;
entry_2:
  j = i + 2;
body:
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
// CHECK-DAG: {"line": 29, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 13, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 22, "column": 11, "class": "nonaffine"
// CHECK-DAG: {"line": 27, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"name": "i", "line": 12, "class": "nonaffine"
// CHECK-DAG: {"name": "j", "line": 12, "class": "{{nonaffine"|affine", "divergent_conditions": .*\[22, 11\]}}
