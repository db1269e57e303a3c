// Without the tool, DD_PRAGMA expands to nothing: a plain nvcc build of an
// annotated file is warning-free and computes what it computed before.
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -Xcompiler -Wall,-Werror -c %s -o %t.o
// RUN: %decoupler --analyze --report=json %s | FileCheck %s
#include <dd/annotate.h>

__global__ void scale(float *x, float a, int n) {
  // CHECK: "directive": "decouple"
  DD_PRAGMA(decouple depth(2))
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] *= a;
}
