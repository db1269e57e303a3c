// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/irreducible/
// hidden-post-dom.ll, @cycle_inner_ipd: the divergent branch in A goes back to
// the cycle entry E1 or on to B; the path through E1 and E2 reaches B as well,
// so B is a join and dm is a divergent affine tuple.

__global__ void cycle_inner_ipd(int *out, int a, int b) {
  int tid = threadIdx.x;
  int dm;
  if (a < 0)
    goto E2;
E1:
  out[0] = 0;
E2:
  if (!(a < 2)) {
    dm = b;
    goto B;
  }
  if (tid < 0)
    goto E1;
  dm = 0;
B:
  out[dm] = 1;
  if (a < 10)
    goto E1;
}

// CHECK-LABEL: "name": "cycle_inner_ipd"
// CHECK-DAG: {"line": 23, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}19, 7]]
// CHECK-DAG: {"line": 15, "column": 7, "class": "scalar"
// CHECK-DAG: {"line": 19, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 24, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "dm", "line": 9, "class": "affine"
