// A byte-order mark and no #include: the runtime include goes after the
// mark and the leading comments.
// RUN: %decoupler --passes=atomics %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// RUN: head -c 3 %t.cu | od -An -tx1 | FileCheck %s --check-prefix=BOM
// BOM: ef bb bf
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// CHECK: #include <dd/atomics.cuh>
// CHECK-NEXT: __global__ void count(unsigned long long *total) { dd::atomic_add_uniform(total, 1ull); }
__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }
