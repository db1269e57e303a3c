// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/hidden_loopdiverge.ll,
// @hidden_nestedloop_diverge, @hidden_doublebreak_diverge and
// @hidden_containedloop_diverge: divergent loops nested in loops.
// nestedloop: the inner loop (G, L) exits divergently to C inside the outer
// loop; Y (reached from C and, through the outer header, from X) joins the
// paths, X does not. h is not defined in the inner loop and the outer loop has
// no divergent exit, so x (h via B) stays scalar.
// doublebreak: the divergent branch in G leaves both loops; h, defined in the
// outer loop, is nonaffine at X (temporal divergence); Y joins.
// containedloop: the divergent inner exit carries g (defined in the inner
// loop) to B: nonaffine; the outer loop exits uniformly, x stays scalar.

__global__ void hidden_nestedloop_diverge(int *out, int a, int b) {
  int tid = threadIdx.x;
  int h = 0, x, y, e;
  if (a < 0) {
    x = a;
    goto X;
  }
H:
  out[h] = 0;
  if (a < 0)
    goto G;
  if (a < 0) {
    x = h;
    goto X;
  }
C:
  if (a < 0) {
    y = b;
    goto Y;
  }
D:
  h = h + 1;
  goto H;
G:
  if (tid < 0)
    goto C;
  if (a < 0)
    goto D;
  goto G;
X:
  out[x] = 1;
  if (a < 0) {
    y = 42;
    goto Y;
  }
  e = a;
  goto exit_;
Y:
  out[y] = 2;
  e = b;
exit_:
  out[e] = 3;
}

__global__ void hidden_doublebreak_diverge(int *out, int a, int b) {
  int tid = threadIdx.x;
  int h = 0, x, y;
  if (a < 0) {
    x = a;
    goto X;
  }
H:
  out[h] = 0;
  if (a < 0)
    goto G;
  if (a < 0) {
    y = b;
    goto Y;
  }
C:
  h = h + 1;
  goto H;
G:
  if (tid < 0) {
    x = h;
    goto X;
  }
  if (a < 0)
    goto C;
  goto G;
X:
  out[x] = 1;
  y = 42;
Y:
  out[y] = 2;
}

__global__ void hidden_containedloop_diverge(int *out, int a) {
  int tid = threadIdx.x;
  int h = 0, g, bm, x;
  if (a < 0) {
    x = a;
    goto X;
  }
H:
  out[h] = 0;
  if (a < 0) {
    g = 123;
    goto G;
  }
  bm = 42;
  goto B;
G:
  out[g] = 1;
  if (tid < 0) {
    bm = g;
    goto B;
  }
  g = g + 1;
  if (a < 0)
    goto G;
  goto D;
B:
  out[bm] = 2;
D:
  h = h + 1;
  if (a < 0) {
    x = h;
    goto X;
  }
  goto H;
X:
  out[x] = 3;
}

// CHECK-LABEL: "name": "hidden_nestedloop_diverge"
// CHECK-DAG: {"line": 22, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// LLVM finds x uniform; decoupler is conservative: the branch in G reaches an
// exit of the outer loop (C -> Y) directly and, through the outer header, on
// the other side, so the outer loop counts as left at different iterations
// and h (defined in it) is nonaffine after it.
// CHECK-DAG: {"line": 44, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 52, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}38, 7]]
// CHECK-DAG: {"line": 55, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}38, 7]]
// CHECK-DAG: {"line": 38, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "h", "line": 16, "class": "nonaffine"
// CHECK-DAG: {"name": "x", "line": 16, "class": "nonaffine"
// CHECK-LABEL: "name": "hidden_doublebreak_diverge"
// CHECK-DAG: {"line": 66, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 85, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 88, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null{{.*}}"divergent_conditions": {{\[\[}}77, 7]]
// CHECK-DAG: {"line": 77, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "x", "line": 60, "class": "nonaffine"
// CHECK-LABEL: "name": "hidden_containedloop_diverge"
// CHECK-DAG: {"line": 99, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 107, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 117, "column": 3, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 126, "column": 3, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 108, "column": 7, "class": "affine"
// CHECK-DAG: {"name": "bm", "line": 93, "class": "nonaffine"
// CHECK-DAG: {"name": "x", "line": 93, "class": "scalar"
