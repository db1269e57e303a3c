// The analysis stays near-linear on goto spaghetti (issue 13, class 12):
// 1,600 labels, each branching on the variables the labels assign to two
// pseudo-random labels, one irreducible region, divergence entering after
// the last label. Label propagation per divergent branch over the whole
// region took 35 s and 700 MB; a large cycle with irreducible flow now gets
// conservative join blocks shared by its branches (docs/analysis.md, Cost),
// and reaching-definition sets past 32 entries are kept as "many". About
// 0.7 s here (clang -fsyntax-only: 0.4 s); the limit is generous for slow CI.
// RUN: python3 %S/Inputs/gen-cost-shapes.py goto 1600 > %t.cu
// RUN: timeout 30 %decoupler --analyze --report=json %t.cu | FileCheck %s
// Every branch is divergent once `s` is (the exact join sets said the same).
// CHECK: {"line": 6406, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4, "strides_bytes": [4, 0, 0]}
// CHECK: "branches": [
// CHECK-NEXT: {"line": 4, "column": 7, "class": "nonaffine"},
// CHECK-NEXT: {"line": 5, "column": 7, "class": "nonaffine"},
// CHECK-NOT: "class": "scalar"
// CHECK: {"line": 6403, "column": 7, "class": "nonaffine"}
