// A file that starts with a UTF-8 byte-order mark: the mark stays first,
// the runtime include goes before the first #include, after the mark.
// RUN: %decoupler --no-line-directives --passes=atomics %s -o %t.cu
// RUN: FileCheck %s --input-file %t.cu --match-full-lines
// RUN: head -c 3 %t.cu | od -An -tx1 | FileCheck %s --check-prefix=BOM
// BOM: ef bb bf
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// CHECK: #include <dd/atomics.cuh>
// CHECK-NEXT: #include <cstdio>
#include <cstdio>
__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }
