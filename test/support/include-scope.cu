// An #include inside `extern "C" {}` or a namespace is not at file scope,
// and one after a declaration comes after code that may use the runtime:
// with no other, the runtime include goes to the top of the file.
// RUN: %decoupler --no-line-directives --passes=atomics %s -o %t.cu -- -I%S/Inputs
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -I%S/Inputs -c %t.cu -o %t.o

// CHECK: #include <dd/atomics.cuh>
// CHECK-NEXT: extern "C" {
extern "C" {
#include "c_api.h"
}
namespace util {
#include "inner.h"
}
__global__ void count(unsigned long long *total) { atomicAdd(total, util::twice(1)); }
#include <cstdio>
