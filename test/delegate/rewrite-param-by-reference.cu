// A parameter the kernel changes before the critical section travels in the
// message however the change is spelled: through a __device__ helper that
// takes it by non-const reference, or through a local reference to it. The
// server's copy of the parameter is the launch's, so reading that one would
// update the wrong words. A parameter only read, or passed by value or by
// const reference, stays a server argument.
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
__device__ void advance(int *&p, int by) { p += by; }
__device__ int peek(const int &v) { return v; }

// CHECK: struct helper_message {
// CHECK-NEXT:   int slot;
// CHECK-NEXT:   int *hits;
// CHECK-NEXT: };
// CHECK: __device__ void helper_critical_section(int slot, int *hits) {
__global__ void helper(int *hits, int *locks, int stride) {
  advance(hits, stride);
  int slot = (threadIdx.x * stride) % 64;
  bool done = false;
  // CHECK: dd_tx.send(helper_delegate::route(dd_channel, slot), helper_message{slot, hits});
  DD_PRAGMA(delegate)
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 1;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: helper_critical_section(dd_m.slot, dd_m.hits); });

// CHECK: struct alias_message {
// CHECK-NEXT:   int slot;
// CHECK-NEXT:   int *hits;
// CHECK-NEXT: };
__global__ void alias(int *hits, int *locks, int stride) {
  int *&h = hits;
  h += stride;
  int slot = threadIdx.x % 64;
  bool done = false;
  DD_PRAGMA(delegate)
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 1;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: alias_critical_section(dd_m.slot, dd_m.hits); });

// Read through a const reference only: the server's copy is the same.
// CHECK: struct reader_message {
// CHECK-NEXT:   int slot;
// CHECK-NEXT: };
__global__ void reader(int *hits, int *locks, int stride) {
  int slot = (threadIdx.x * peek(stride)) % 64;
  bool done = false;
  DD_PRAGMA(delegate)
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 1;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: reader_critical_section(dd_m.slot, hits); });

void run(int *hits, int *locks, int n) {
  helper<<<n / 64, 64>>>(hits, locks, 3);
  alias<<<n / 64, 64>>>(hits, locks, 3);
  reader<<<n / 64, 64>>>(hits, locks, 3);
}
