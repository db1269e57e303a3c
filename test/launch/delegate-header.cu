// A kernel declared in a header (Inputs/kernels.h: namespace lib, a default
// argument) and launched before its definition: the launcher is declared
// before the function holding the first launch, in namespace lib, with the
// kernel's default, which launches that leave the argument out rely on. A
// kernel whose default is on its definition gets it on the launcher's
// definition. The configuration is passed as written (a macro too), 0 for
// what it leaves out. The output compiles without a warning.
// RUN: %decoupler --no-line-directives --passes=delegate %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -I%S -c %t.cu -o %t.o
#include <dd/annotate.h>
#include "Inputs/kernels.h"

#define CONFIG(n) n, 64

__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__device__ void unlock(int *l) {
  __threadfence();
  atomicExch(l, 0);
}

// CHECK: // decoupler: tally's launches go through this (defined below).
// CHECK-NEXT: namespace lib { static void tally_launch(dim3, dim3, size_t, cudaStream_t, int *, int *, int = 1); }
// CHECK-NEXT: /// Runs the tally.
/// Runs the tally.
void run(int *hits, int *locks, int n, cudaStream_t s) {
  // CHECK: lib::tally_launch(n, 64, 0, 0, hits, locks);
  lib::tally<<<n, 64>>>(hits, locks);
  // CHECK-NEXT: lib::tally_launch(n, 64, 0, 0, hits, locks, 2);
  lib::tally<<<n, 64, 0>>>(hits, locks, 2);
  // CHECK-NEXT: lib::tally_launch(dim3(n, 2), dim3(32, 2), 0, s, hits, locks);
  lib::tally<<<dim3(n, 2), dim3(32, 2), 0, s>>>(hits, locks);
  // CHECK-NEXT: lib::tally_launch(CONFIG(n), 0, 0, hits, locks);
  lib::tally<<<CONFIG(n)>>>(hits, locks);
  // CHECK-NEXT: lib::tally_launch((unsigned)n , 64u, 0, 0,  hits, locks, /* stride */ 3 );
  lib::tally<<< (unsigned)n , 64u>>>( hits, locks, /* stride */ 3 );
}

namespace lib {
__global__ void tally(int *hits, int *locks, int stride) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += stride;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: static void tally_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, int *hits, int *locks, int stride) {
} // namespace lib

__global__ void bump(int *hits, int *locks, unsigned by = 2u) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += by;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: static void bump_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, int *hits, int *locks, unsigned int by = 2u) {

// CHECK: void after(int *hits, int *locks, size_t blocks) {
// CHECK-NEXT: lib::tally_launch(blocks, 64, 0, 0, hits, locks);
// CHECK-NEXT: bump_launch(blocks, 64, 0, 0, hits, locks);
// CHECK-NEXT: bump_launch(blocks, 64, 0, 0, hits, locks, 1u);
void after(int *hits, int *locks, size_t blocks) {
  lib::tally<<<blocks, 64>>>(hits, locks);
  bump<<<blocks, 64>>>(hits, locks);
  bump<<<blocks, 64>>>(hits, locks, 1u);
}
