// A kernel that returns early and synchronizes its block is not delegated
// (issue 13): the client runs the body in a lambda so that a thread that
// returns still reaches dd_tx.finish(), and finish()'s __syncthreads()
// would pair with the kernel's own barrier of the threads that did not
// return (the tile load after a bounds check). The barrier in the kernel,
// in a function it calls, a cooperative group's sync(); error at the
// barrier with a note at the return. Annotated: errors, no output;
// --delegate=auto: warnings, file unchanged.
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=delegate %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// RUN: sed 's/#pragma dd delegate//' %s > %t.plain.cu
// RUN: %decoupler --passes=delegate --delegate=auto %t.plain.cu -o %t.auto.cu 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: cmp %t.plain.cu %t.auto.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <cooperative_groups.h>
#include <dd/annotate.h>

namespace cg = cooperative_groups;

// The tile load after a bounds check: the threads past n leave, the others
// meet at the barrier.
// CHECK: refuse-early-return.cu:[[@LINE+14]]:3: error: cannot delegate this critical section: kernel 'tile_after_bounds_check' returns early for some threads and synchronizes its block ('__syncthreads'); in the delegated client a thread that returns does not exit but waits in dd_tx.finish(), whose __syncthreads() would pair with this barrier of the threads that did not return (in the original the returned threads have exited and the barrier waits only for the others): the barriers would no longer match, or deadlock
// CHECK-NEXT: {{^}} [[#@LINE+13]] |   __syncthreads();
// CHECK-NEXT: {{^}}      |   ^
// CHECK-NEXT: refuse-early-return.cu:[[@LINE+9]]:5: note: a thread returns here
// AUTO: {{.*}}:[[@LINE+10]]:3: warning: --delegate=auto: try-lock loop not delegated: kernel 'tile_after_bounds_check' returns early for some threads and synchronizes its block ('__syncthreads'); in the delegated client a thread that returns does not exit but waits in dd_tx.finish(), whose __syncthreads() would pair with this barrier of the threads that did not return (in the original the returned threads have exited and the barrier waits only for the others): the barriers would no longer match, or deadlock
// AUTO-NEXT: {{^}} [[#@LINE+9]] |   __syncthreads();
// AUTO-NEXT: {{^}}      |   ^
// AUTO-NEXT: {{.*}}:[[@LINE+5]]:5: note: a thread returns here
__global__ void tile_after_bounds_check(const int *keys, int n, int *bins, int *locks) {
  __shared__ int tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = keys[i];
  __syncthreads();
  const int k = (tile[threadIdx.x] + tile[(threadIdx.x + 1) % blockDim.x]) & 255;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      bins[k] += 1;
      atomicExch(&locks[k], 0);
      done = true;
    }
  } while (!done);
}

__device__ int neighbour_sum(int *tile, int v) {
  tile[threadIdx.x] = v;
  __syncthreads();
  return tile[threadIdx.x] + tile[(threadIdx.x + 1) % blockDim.x];
}

// The barrier in a function the kernel calls; the return after the
// critical section's loop.
// CHECK: refuse-early-return.cu:[[@LINE+13]]:17: error: cannot delegate this critical section: kernel 'barrier_in_callee' returns early for some threads and calls 'neighbour_sum', which synchronizes its block ('__syncthreads'); in the delegated client a thread that returns does not exit but waits in dd_tx.finish(), whose __syncthreads() would pair with this barrier of the threads that did not return (in the original the returned threads have exited and the barrier waits only for the others): the barriers would no longer match, or deadlock
// CHECK-NEXT: {{^}} [[#@LINE+12]] |   const int k = neighbour_sum(tile, i < n ? keys[i] : 0) & 255;
// CHECK-NEXT: {{^}}      |                 ^
// CHECK-NEXT: refuse-early-return.cu:[[@LINE-9]]:3: note: the block synchronizes here
// CHECK: refuse-early-return.cu:[[@LINE+11]]:5: note: a thread returns here
// AUTO: {{.*}}:[[@LINE+8]]:17: warning: --delegate=auto: try-lock loop not delegated: kernel 'barrier_in_callee' returns early for some threads and calls 'neighbour_sum', which synchronizes its block ('__syncthreads'); in the delegated client a thread that returns does not exit but waits in dd_tx.finish(), whose __syncthreads() would pair with this barrier of the threads that did not return (in the original the returned threads have exited and the barrier waits only for the others): the barriers would no longer match, or deadlock
// AUTO-NEXT: {{^}} [[#@LINE+7]] |   const int k = neighbour_sum(tile, i < n ? keys[i] : 0) & 255;
// AUTO-NEXT: {{^}}      |                 ^
// AUTO-NEXT: {{.*}}:[[@LINE-14]]:3: note: the block synchronizes here
// AUTO: {{.*}}:[[@LINE+6]]:5: note: a thread returns here
__global__ void barrier_in_callee(const int *keys, int n, int *bins, int *locks) {
  __shared__ int tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = neighbour_sum(tile, i < n ? keys[i] : 0) & 255;
  if (i >= n)
    return;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      bins[k] += 1;
      atomicExch(&locks[k], 0);
      done = true;
    }
  } while (!done);
}

// A cooperative group's block-wide sync() is a barrier too.
// CHECK: refuse-early-return.cu:[[@LINE+15]]:3: error: cannot delegate this critical section: kernel 'group_sync' returns early for some threads and synchronizes its block ('sync'); in the delegated client a thread that returns does not exit but waits in dd_tx.finish(), whose __syncthreads() would pair with this barrier of the threads that did not return (in the original the returned threads have exited and the barrier waits only for the others): the barriers would no longer match, or deadlock
// CHECK-NEXT: {{^}} [[#@LINE+14]] |   block.sync();
// CHECK-NEXT: {{^}}      |   ^
// CHECK-NEXT: refuse-early-return.cu:[[@LINE+10]]:5: note: a thread returns here
// AUTO: {{.*}}:[[@LINE+11]]:3: warning: --delegate=auto: try-lock loop not delegated: kernel 'group_sync' returns early for some threads and synchronizes its block ('sync'); in the delegated client a thread that returns does not exit but waits in dd_tx.finish(), whose __syncthreads() would pair with this barrier of the threads that did not return (in the original the returned threads have exited and the barrier waits only for the others): the barriers would no longer match, or deadlock
// AUTO-NEXT: {{^}} [[#@LINE+10]] |   block.sync();
// AUTO-NEXT: {{^}}      |   ^
// AUTO-NEXT: {{.*}}:[[@LINE+6]]:5: note: a thread returns here
__global__ void group_sync(const int *keys, int n, int *bins, int *locks) {
  __shared__ int tile[256];
  cg::thread_block block = cg::this_thread_block();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = keys[i];
  block.sync();
  const int k = tile[(threadIdx.x + 1) % blockDim.x] & 255;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      bins[k] += 1;
      atomicExch(&locks[k], 0);
      done = true;
    }
  } while (!done);
}

void run(const int *keys, int n, int *bins, int *locks) {
  tile_after_bounds_check<<<(n + 255) / 256, 256>>>(keys, n, bins, locks);
  barrier_in_callee<<<(n + 255) / 256, 256>>>(keys, n, bins, locks);
  group_sync<<<(n + 255) / 256, 256>>>(keys, n, bins, locks);
}
