// GNU statement expressions in and around a delegated critical section: the
// outlined critical section keeps them as written (their locals are their
// own, not message fields), a lock index computed by one is the client's,
// and a statement expression that jumps out of the section (break) is
// refused like any other exit. The output compiles without a warning.
// RUN: %decoupler --passes=delegate %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// RUN: not %decoupler --passes=delegate %s -o %t.exit.cu -- -DEXIT 2>&1 | FileCheck %s --check-prefix=EXIT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <dd/annotate.h>

__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__device__ void unlock(int *l) {
  __threadfence();
  atomicExch(l, 0);
}

// CHECK: struct count_message {
// CHECK-NEXT: int slot;
// CHECK-NEXT: };
// CHECK: __device__ void count_critical_section(int slot, int *hits) {
// CHECK-NEXT: hits[slot] = ({ int t = hits[slot]; t + (slot > 3 ? 2 : 1); });
// CHECK-NEXT: }
__global__ void count(int *hits, int *locks) {
  // CHECK: int slot = ({ int s = threadIdx.x; s % 64; });
  int slot = ({ int s = threadIdx.x; s % 64; });
  bool done = false;
  // CHECK: dd_tx.send(count_delegate::route(dd_channel, slot), count_message{slot});
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] = ({ int t = hits[slot]; t + (slot > 3 ? 2 : 1); });
      unlock(&locks[slot]);
      done = true;
    }
  }
}

#ifdef EXIT
__global__ void leaves(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      // EXIT: rewrite-statement-expr.cu:[[@LINE+1]]:38: error: cannot delegate this critical section: the critical section leaves the try-lock loop with 'break'
      hits[slot] += ({ if (slot < 0) break; 1; });
      unlock(&locks[slot]);
      done = true;
    }
  }
}
#endif

void run(int *hits, int *locks) {
  count<<<1, 64>>>(hits, locks);
#ifdef EXIT
  leaves<<<1, 64>>>(hits, locks);
#endif
}
