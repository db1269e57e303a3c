// RUN: %decoupler --analyze --report=json %s | FileCheck %s
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=NEG
// Port of llvm/test/Analysis/UniformityAnalysis/NVPTX/diverge.ll, @no_diverge:
//   return (n < 0 ? a + threadIdx.x : b + threadIdx.x)
// The branch on the kernel parameter n is uniform: scalar. (LLVM calls the phi
// divergent by data dependence; here a+tid and b+tid both have stride 1 and
// the side is chosen uniformly, so c is one affine tuple, stride 1.)

__global__ void no_diverge(int *out, int n, int a, int b) {
  int tid = threadIdx.x;
  int c;
  if (n < 0)
    c = a + tid;
  else
    c = b + tid;
  out[c] = 0;
}

// CHECK-LABEL: "name": "no_diverge"
// CHECK-DAG: {"line": 16, "column": 3, "kind": "store", "space": "global", "class": "affine", "stride_bytes": 4
// CHECK-DAG: {"line": 12, "column": 7, "class": "scalar"
// CHECK-DAG: {"name": "c", "line": 11, "class": "affine"{{.*}}"strides": [1, 0, 0]
// NEG-NOT: divergent_conditions
