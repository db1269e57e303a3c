// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// Port of llvm/test/Analysis/UniformityAnalysis/AMDGPU/b42473-r1-crash.ll:
// results of calls to functions without a body are divergent (nonaffine), and
// so is everything computed or loaded from them. Inside the loop the counter i
// is scalar (the loop exit is divergent, so after the loop i is nonaffine).
// Deliberate difference: the original is a non-kernel function whose pointer
// arguments are divergent; here A is a kernel parameter that is only read, so
// A[i] at the scalar i is a scalar load.

extern __device__ int gf2(int);
extern __device__ int gf1(int);

__global__ void tw1(const int *A, int *B) {
  int call = gf2(0);
  if (call < 16) {
    int call1 = gf1(0);
    int x0 = A[call1];
    int *arrayidx10 = &B[call1];
    int i = 0;
    if (x0 > 0) {
      do {
        int call3 = gf1(0);
        int x1 = A[i];
        if (call3 < 10)
          *arrayidx10 += x1 * 2;
        else
          *arrayidx10 += x1 * 4;
        i++;
      } while (i != x0);
    }
    *arrayidx10 -= i;
  }
}

// CHECK-LABEL: "name": "tw1"
// CHECK-DAG: {"line": 17, "column": 14, "kind": "load", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 23, "column": 18, "kind": "load", "space": "global", "class": "scalar", "stride_bytes": 0
// CHECK-DAG: {"line": 25, "column": 11, "kind": "load", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 25, "column": 11, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 27, "column": 11, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 31, "column": 5, "kind": "store", "space": "global", "class": "nonaffine", "stride_bytes": null
// CHECK-DAG: {"line": 15, "column": 7, "class": "nonaffine"
// CHECK-DAG: {"line": 20, "column": 9, "class": "nonaffine"
// CHECK-DAG: {"line": 24, "column": 13, "class": "nonaffine"
// CHECK-DAG: {"line": 29, "column": 16, "class": "nonaffine"
// CHECK-DAG: {"name": "call", "line": 14, "class": "nonaffine"
// CHECK-DAG: {"name": "call1", "line": 16, "class": "nonaffine"
// CHECK-DAG: {"name": "x1", "line": 23, "class": "scalar"
// CHECK-DAG: {"name": "i", "line": 19, "class": "nonaffine"
