// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// Figure 3.10 of the dissertation. Right: offset is 0 or tid*4 depending on a
// divergent condition, so the address is a divergent affine tuple: affine,
// stride_bytes null, with the condition in divergent_conditions. Left: an
// address computed the same way in every active thread under a divergent
// branch keeps its single tuple.

__global__ void one_condition(int *base, int n) {
  int tid = threadIdx.x;
  int offset = 0;
  if (tid < n)
    offset = tid * 4;
  base[offset] = 1;
  if (tid < n)
    base[tid + 64] = 2;
}

// CHECK-LABEL: "name": "one_condition"
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// CHECK-DAG: {"line": 16, "column": 5, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 12, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 15, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "offset", "line": 11, "class": "affine"{{.*}}"divergent_conditions": {{\[\[}}12, 7]]
// NEG-NOT: {"line": 16, "column": 5, {{.*}}divergent_conditions
