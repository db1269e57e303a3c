// Other spellings of the try-lock loop: a while loop, locks taken and given
// back through one-statement __device__ helpers, the DD_PRAGMA form; a
// parameter the kernel changes before the critical section travels in the
// message (the server's copy would be the unchanged one); a flag read after
// the loop stays, set after the send; a kernel launched before its
// definition gets its launcher declared up front.
// RUN: %decoupler --no-line-directives --passes=delegate %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <dd/annotate.h>

__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__device__ void unlock(int *l) {
  __threadfence();
  atomicExch(l, 0);
}

// CHECK: __global__ void count(int *hits, int *locks, int *done_out, int stride);
// CHECK-NEXT: // decoupler: count's launches go through this (defined below).
// CHECK-NEXT: static void count_launch(dim3, dim3, size_t, cudaStream_t, int *, int *, int *, int);
__global__ void count(int *hits, int *locks, int *done_out, int stride);

void run(int *hits, int *locks, int *done_out, int n) {
  // CHECK: count_launch(n / 64, 64, 0, 0, hits, locks, done_out, 3);
  count<<<n / 64, 64>>>(hits, locks, done_out, 3);
}

// CHECK: struct count_message {
// CHECK-NEXT:   int slot;
// CHECK-NEXT:   int *hits;
// CHECK-NEXT: };
// CHECK: __device__ void count_critical_section(int slot, int *hits) {
// CHECK-NEXT:   hits[slot] += 1;
// CHECK-NEXT: }
__global__ void count(int *hits, int *locks, int *done_out, int stride) {
  hits += stride;
  int slot = (threadIdx.x * stride) % 64;
  bool done = false;
  // CHECK-NOT: DD_PRAGMA
  // CHECK: dd_tx.send(count_delegate::route(dd_channel, slot), count_message{slot, hits});
  // CHECK-NEXT: done = true;
  // CHECK-NEXT: done_out[threadIdx.x] = done;
  DD_PRAGMA(delegate)
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 1;
      unlock(&locks[slot]);
      done = true;
    }
  }
  done_out[threadIdx.x] = done;
}
// CHECK: __global__ void count_server(count_delegate::channel_type dd_channel) {
// CHECK: count_critical_section(dd_m.slot, dd_m.hits); });
