// Reaching-definition sets past 32 entries are kept as one "many" marker
// (issue 13, class 12); "many" must stay conservative: it counts as
// differing at joins and as defined inside any loop that threads leave at
// different iterations. `v` has 41 definitions reaching the loop's divergent
// exit, `w` 5: both are nonaffine after the loop (temporal divergence).
// RUN: %decoupler --analyze --report=json %s | FileCheck %s

__global__ void many(int *out, int n, int sel) {
  int v = 0, w = 0;
  for (int i = 0; i < n; ++i) {
    switch (sel + i) {
    case 0: v = 0; break;
    case 1: v = 7; break;
    case 2: v = 3; break;
    case 3: v = 10; break;
    case 4: v = 6; break;
    case 5: v = 2; break;
    case 6: v = 9; break;
    case 7: v = 5; break;
    case 8: v = 1; break;
    case 9: v = 8; break;
    case 10: v = 4; break;
    case 11: v = 0; break;
    case 12: v = 7; break;
    case 13: v = 3; break;
    case 14: v = 10; break;
    case 15: v = 6; break;
    case 16: v = 2; break;
    case 17: v = 9; break;
    case 18: v = 5; break;
    case 19: v = 1; break;
    case 20: v = 8; break;
    case 21: v = 4; break;
    case 22: v = 0; break;
    case 23: v = 7; break;
    case 24: v = 3; break;
    case 25: v = 10; break;
    case 26: v = 6; break;
    case 27: v = 2; break;
    case 28: v = 9; break;
    case 29: v = 5; break;
    case 30: v = 1; break;
    case 31: v = 8; break;
    case 32: v = 4; break;
    case 33: v = 0; break;
    case 34: v = 7; break;
    case 35: v = 3; break;
    case 36: v = 10; break;
    case 37: v = 6; break;
    case 38: v = 2; break;
    case 39: v = 9; break;
    }
    switch (sel - i) {
    case 0: w = 0; break;
    case 1: w = 7; break;
    case 2: w = 3; break;
    case 3: w = 10; break;
    }
    if (threadIdx.x < i)
      break;
  }
  out[v] = 1;
  out[w + 1] = 2;
  // Uniform selection keeps a value scalar however many definitions reach.
  int u = 0;
  switch (sel) {
    case 0: u = 0; break;
    case 1: u = 7; break;
    case 2: u = 3; break;
    case 3: u = 10; break;
    case 4: u = 6; break;
    case 5: u = 2; break;
    case 6: u = 9; break;
    case 7: u = 5; break;
    case 8: u = 1; break;
    case 9: u = 8; break;
    case 10: u = 4; break;
    case 11: u = 0; break;
    case 12: u = 7; break;
    case 13: u = 3; break;
    case 14: u = 10; break;
    case 15: u = 6; break;
    case 16: u = 2; break;
    case 17: u = 9; break;
    case 18: u = 5; break;
    case 19: u = 1; break;
    case 20: u = 8; break;
    case 21: u = 4; break;
    case 22: u = 0; break;
    case 23: u = 7; break;
    case 24: u = 3; break;
    case 25: u = 10; break;
    case 26: u = 6; break;
    case 27: u = 2; break;
    case 28: u = 9; break;
    case 29: u = 5; break;
    case 30: u = 1; break;
    case 31: u = 8; break;
    case 32: u = 4; break;
    case 33: u = 0; break;
    case 34: u = 7; break;
    case 35: u = 3; break;
    case 36: u = 10; break;
    case 37: u = 6; break;
    case 38: u = 2; break;
    case 39: u = 9; break;
  }
  out[u + 2] = 3;
}
// CHECK: {"line": 62, "column": 3, "kind": "store", "space": "global", "class": "nonaffine"
// CHECK: {"line": 63, "column": 3, "kind": "store", "space": "global", "class": "nonaffine"
// CHECK: {"line": 108, "column": 3, "kind": "store", "space": "global", "class": "scalar"
