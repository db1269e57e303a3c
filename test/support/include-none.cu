// A file without any #include: the runtime include goes after the leading
// comments, at the start of a line.
// RUN: %decoupler --no-line-directives --passes=atomics %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// CHECK: {{ +}}ending on its own line. */
// CHECK-NEXT: #include <dd/atomics.cuh>
// CHECK-NEXT: __global__ void count(unsigned long long *total) { dd::atomic_add_uniform(total, 1ull); }
/* A block comment
   ending on its own line. */
__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }
