// `#pragma once` at the top stays first (a file also used as a header).
// No nvcc: the input itself warns about '#pragma once in main file'.
// RUN: %decoupler --no-line-directives --passes=atomics %s -o %t.cu 2>/dev/null
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// CHECK: #pragma once
// CHECK-NEXT: #include <dd/atomics.cuh>
// CHECK-NEXT: __device__ inline void count(unsigned long long *total) { dd::atomic_add_uniform(total, 1ull); }
#pragma once
__device__ inline void count(unsigned long long *total) { atomicAdd(total, 1ull); }
__global__ void k(unsigned long long *total) { count(total); }
