// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/join-at-loop-heart.ll:
// the two sides of a divergent branch inside a loop both go back to the loop
// header A (directly or through E): A is a join of the branch and h, assigned
// on each side, is not scalar there. (The original also uses convergence
// control tokens, which CUDA source does not have.)

__global__ void nested_loop_extension(int *out, bool c1, bool c2, bool c3) {
  int tid = threadIdx.x;
  int h = 0, inc;
A:
  inc = h + 1;
  out[h] = 0;
  if (tid < 0) {
    h = inc;
    if (c1)
      goto A;
    goto E;
  }
  h = inc;
  if (c2)
    goto A;
E:
  if (c3)
    goto A;
}

// CHECK-LABEL: "name": "nested_loop_extension"
// CHECK-DAG: {"line": 13, "column": 3, "kind": "store", "space": "global", "class": "{{affine|nonaffine}}"
// CHECK-DAG: {"line": 14, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 16, "column": 9, "class": "scalar"
// CHECK-DAG: {"line": 21, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "h", "line": 10, "class": "{{affine|nonaffine}}"
