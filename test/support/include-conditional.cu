// An #include inside a conditional region, active or not, is no place for
// the runtime include: it must be there whatever the condition. With an
// unconditional #include after it, before that one.
// RUN: %decoupler --no-line-directives --passes=atomics %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// CHECK: #if defined(__CUDACC__)
// CHECK-NEXT: #include <cstdlib>
// CHECK-NEXT: #endif
// CHECK-NEXT: #include <dd/atomics.cuh>
// CHECK-NEXT: #include <cstdio>

#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif
#if defined(__CUDACC__)
#include <cstdlib>
#endif
#include <cstdio>

__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }
