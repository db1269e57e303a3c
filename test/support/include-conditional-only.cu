// Every #include is conditional: the runtime include goes to the top of the
// file, after its leading comments, in code that is always active.
// RUN: %decoupler --no-line-directives --passes=atomics %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

// CHECK: #include <dd/atomics.cuh>
// CHECK-NEXT: #ifdef _WIN32
#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif

__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }
