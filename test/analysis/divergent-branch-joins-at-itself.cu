// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// A divergent branch whose two sides both go back to the block holding the
// branch (a loop written with goto): the paths that left the branch through
// different successors meet again at that block, so it is a join of the
// branch (as in LLVM's SyncDependenceAnalysis, which records such a join even
// though it does not propagate past the branch's own block). j is assigned
// differently on each side, so at L it is a divergent affine tuple: threads
// with tid < n come back with 1, the others with 2. Same with a switch.

__global__ void affine_condition(int *out, int n) {
  int tid = threadIdx.x;
  int j = 0;
L:
  out[j] = 0;
  if (tid < n) {
    j = 1;
    goto L;
  }
  if (n > 5) {
    j = 2;
    goto L;
  }
}

__global__ void switch_condition(int *out, int n) {
  int tid = threadIdx.x;
  int j = 0;
L:
  out[j] = 0;
  switch (tid - n) {
  case 1: j = 1; goto L;
  case 2: j = 2; goto L;
  default: break;
  }
}

// CHECK-LABEL: "name": "affine_condition"
// CHECK-DAG: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}15, 7]]
// CHECK-DAG: {"line": 15, "column": 7, "class": "affine"
// CHECK-DAG: {"line": 19, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "j", "line": 12, "class": "affine"{{.*}}"divergent_conditions": {{\[\[}}15, 7]]
// CHECK-LABEL: "name": "switch_condition"
// CHECK-DAG: {"line": 29, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}30, 11]]
// CHECK-DAG: {"line": 30, "column": 11, "class": "affine"
// CHECK-DAG: {"name": "j", "line": 27, "class": "affine"{{.*}}"divergent_conditions": {{\[\[}}30, 11]]
