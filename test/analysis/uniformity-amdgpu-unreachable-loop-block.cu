// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/
// unreachable-loop-block.ll: a loop around a compare-and-swap that is not
// reachable from the entry. The analysis must cope; whatever it reports for
// the unreachable code, the atomic's result is never scalar.

__global__ void unreachable_loop(int *out, int tidx) {
  return;
  int tmp;
  do {
    tmp = atomicCAS(&out[0], 0, 0);
  } while (tmp == 0);
  out[tmp] = 1;
}

// CHECK: "name": "unreachable_loop"
// NEG-NOT: {"name": "tmp", "line": 10, "class": "scalar"
// NEG-NOT: {"line": 14, "column": 3, "kind": "store", "space": "global", "class": "scalar"
