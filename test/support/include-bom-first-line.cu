#include <cstdio>
// A byte-order mark right before the first #include, on the first line:
// the runtime include goes after the mark.
// RUN: %decoupler --passes=atomics %s -o %t.cu
// The first 16 bytes: the mark, then '#include <dd/'.
// RUN: head -c 16 %t.cu | od -An -tx1 | FileCheck %s --check-prefix=BOM
// BOM: ef bb bf 23 69 6e 63 6c 75 64 65 20 3c 64 64 2f
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
__global__ void count(unsigned long long *total) { atomicAdd(total, 1ull); }
