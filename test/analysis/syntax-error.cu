// RUN: not %decoupler --analyze %s 2>&1 | FileCheck %s
// RUN: not %decoupler --analyze --report=json %s 2>&1 | FileCheck %s --check-prefix=JSON
// Input that does not compile: clang's error with its caret, a failing exit
// status and no report.

__global__ void broken(int *a) {
  a[threadIdx.x] = 1
}

// CHECK: syntax-error.cu:7:21: error: expected ';' after expression
// CHECK-NEXT: a[threadIdx.x] = 1
// CHECK-NEXT: {{^[ 0-9|]*\^}}
// JSON: error: expected ';' after expression
// JSON-NOT: "kernels"
