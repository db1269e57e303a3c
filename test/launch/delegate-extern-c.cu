// Kernels with C language linkage: the launcher is defined with the kernel,
// inside its extern "C" block, so its declaration before an earlier launch
// gets the same linkage: in an extern "C" block of its own when the kernel
// was declared in a header (Inputs/kernels.h), after the kernel's
// declaration when that is in the file. (Kept apart from C++ kernels: the
// delegate clients' dd_stage would be declared with both linkages.) The
// output compiles without a warning.
// RUN: %decoupler --no-line-directives --passes=delegate %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -I%S -c %t.cu -o %t.o
#include <dd/annotate.h>
#include "Inputs/kernels.h"

__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__device__ void unlock(int *l) {
  __threadfence();
  atomicExch(l, 0);
}

extern "C" {
// CHECK: __global__ void c_block(int *hits, int *locks);
// CHECK-NEXT: // decoupler: c_block's launches go through this (defined below).
// CHECK-NEXT: static void c_block_launch(dim3, dim3, size_t, cudaStream_t, int *, int *);
// CHECK-NEXT: }
__global__ void c_block(int *hits, int *locks);
}

// CHECK: // decoupler: c_tally's launches go through this (defined below).
// CHECK-NEXT: extern "C" { static void c_tally_launch(dim3, dim3, size_t, cudaStream_t, int *, int *); }
// CHECK-NEXT: void run(int *hits, int *locks, int n) {
// CHECK-NEXT: c_tally_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: c_block_launch(n, 64, 0, 0, hits, locks);
void run(int *hits, int *locks, int n) {
  c_tally<<<n, 64>>>(hits, locks);
  c_block<<<n, 64>>>(hits, locks);
}

extern "C" {
__global__ void c_tally(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 1;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: static void c_tally_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, int *hits, int *locks) {

__global__ void c_block(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 2;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: static void c_block_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, int *hits, int *locks) {
}
