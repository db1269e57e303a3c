// What a critical section may read that is the same on the server: a
// default argument and a default member initializer that read no thread
// index are delegated, and a component of threadIdx read in an unevaluated
// operand (sizeof, decltype) is replaced like any other read, inside the
// operand's own parentheses (before, `sizeof(threadIdx.y)` became
// `sizeofdd_threadIdx_y`, which nvcc rejected). The output compiles.
// RUN: %decoupler --passes=delegate %s -o %t.cu 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <dd/annotate.h>

__device__ void add_to(int *sum, int b, int by = 1) { sum[b] += by; }
struct Plain {
  int weight = 2;
};

// The server's copy of the section: every read of threadIdx is the
// client's value from the message, the default argument and the member
// initializer stay as written.
// CHECK-LABEL: __device__ void tally_critical_section(
// CHECK: decltype(dd_threadIdx_x) t = dd_threadIdx_x;
// CHECK-NEXT: sum[b] += (int)sizeof(dd_threadIdx_y) + i;
// CHECK-NEXT: add_to(sum, b);
// CHECK-NEXT: Plain p{};
// CHECK-NEXT: who[b] = (int)t + p.weight;
__global__ void tally(int *sum, int *who, int *locks, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int b = keys[i] % 64;
  bool done = false;
#pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      decltype(threadIdx.x) t = threadIdx.x;
      sum[b] += (int)sizeof(threadIdx.y) + i;
      add_to(sum, b);
      Plain p{};
      who[b] = (int)t + p.weight;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

void run(int *sum, int *who, int *locks, const int *keys, int n) {
  tally<<<(n + 255) / 256, 256>>>(sum, who, locks, keys, n);
}
