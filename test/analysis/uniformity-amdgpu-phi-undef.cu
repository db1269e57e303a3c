// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/phi-undef.ll: the loop
// counter is not divergent although the exit condition is. LLVM ignores the
// undef incoming value of counter.footer; the source counterpart is cf, a
// declaration without initializer that is only assigned on the path that
// continues the loop. An uninitialized declaration is not a definition, so cf
// (and counter) has one definition, counter + 1, and stays scalar.

__global__ void test1(int *out) {
  int bound = threadIdx.x;
  int counter = 0;
  for (;;) {
    out[counter] = 0;
    bool brk = counter >= bound;
    int cf;
    if (!brk)
      cf = counter + 1;
    if (brk)
      break;
    counter = cf;
  }
}

// CHECK-LABEL: "name": "test1"
// CHECK-DAG: {"line": 13, "column": 5, "kind": "store", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 16, "column": 9, "class": "affine"
// CHECK-DAG: {"line": 18, "column": 9, "class": "affine"
// CHECK-DAG: {"name": "bound", "line": 10, "class": "affine"
// CHECK-DAG: {"name": "brk", "line": 14, "class": "affine"
