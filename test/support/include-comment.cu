// The runtime include goes before the first #include the preprocessor
// acts on: not one in a comment or in an `#if 0` block (nested
// conditionals included).
// RUN: %decoupler --no-line-directives --passes=atomics %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// CHECK: #include <nonexistent/legacy.h>
// CHECK-NEXT: #endif
// CHECK-NEXT: #include <dd/atomics.cuh>
// CHECK-NEXT: #include <cstdio>

/* Build notes:
#include <windows.h>
*/
// #include <intrin.h>
#if 0
#ifdef OLD_API
#endif
#include <nonexistent/legacy.h>
#endif
#include <cstdio>

__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }
