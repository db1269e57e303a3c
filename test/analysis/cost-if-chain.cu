// The analysis's fixed point stays near-linear (issue 13, class 12): a loop
// holding a chain of 300 ifs, each branching on the variable the one before
// assigns a constant, with divergence entering at the end of the loop body.
// Each branch turns divergent only through the sync dependence of the one
// before it; re-running the whole data flow once per branch found divergent
// took about a minute here (cubic), marking branches during the fixed point
// takes well under a second. The limit is generous for slow CI machines.
// RUN: python3 %S/Inputs/gen-cost-shapes.py if-chain 300 > %t.cu
// RUN: timeout 30 %decoupler --analyze --report=json %t.cu | FileCheck %s
// The classes are those of the old fixed point: each branch a divergent
// tuple on the one before it, the last variable too.
// CHECK: {"line": 306, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": null, "divergent_conditions": {{\[\[}}303, 9]]}
// CHECK: {"line": 4, "column": 9, "class": "affine"},
// CHECK-NEXT: {"line": 5, "column": 9, "class": "affine", "divergent_conditions": {{\[\[}}4, 9]]},
// CHECK: {"line": 303, "column": 9, "class": "affine", "divergent_conditions": {{\[\[}}302, 9]]}
// CHECK: {"name": "v300", "line": 2, "class": "affine", "divergent_conditions": {{\[\[}}303, 9]]}
