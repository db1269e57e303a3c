// A function-like macro defined before the runtime include would break the
// standard headers the runtime includes (`numeric_limits<T>::max()`): the
// include is sheltered from it with push_macro / #undef / pop_macro, and
// the program's own code below still sees the macro. Object-like macros
// (they configure headers), macros #undef'd before the place, and names the
// implementation reserves are left alone.
// RUN: %decoupler --no-line-directives --passes=split,atomics %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
// CHECK: #define max(a, b) ((a) > (b) ? (a) : (b))
// CHECK-NEXT: #define min(a, b) ((a) < (b) ? (a) : (b))
// CHECK-NEXT: #define gone(x) (x)
// CHECK-NEXT: #undef gone
// CHECK-NEXT: #define __reserved(x) (x)
// CHECK-NEXT: #define NDEBUG 1
// CHECK-NEXT: #pragma push_macro("max")
// CHECK-NEXT: #undef max
// CHECK-NEXT: #pragma push_macro("min")
// CHECK-NEXT: #undef min
// CHECK-NEXT: #include <dd/split_launch.h>
// CHECK-NEXT: #include <dd/atomics.cuh>
// CHECK-NEXT: #pragma pop_macro("min")
// CHECK-NEXT: #pragma pop_macro("max")
// CHECK-NEXT: #include <cstdio>
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define gone(x) (x)
#undef gone
#define __reserved(x) (x)
#define NDEBUG 1
#include <cstdio>

__global__ void rows(const float *__restrict__ A, float *__restrict__ B,
                     int dim, int num, int step) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
#pragma dd decouple
  for (int i = 0; i < dim; i += step)
    B[i * num + tid] = A[i * num + tid] + 1;
}

__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }

void launch(const float *A, float *B, int dim, int num, int step,
            unsigned long long *total) {
  rows<<<max(num / 256, 1), 256>>>(A, B, dim, num, step);
  count<<<min(num, 64), 256>>>(total);
}
