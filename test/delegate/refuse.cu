// Loops a `#pragma dd delegate` annotates that cannot be delegated, and why:
// the report says so with the position of the reason.
// RUN: %decoupler --analyze %s | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <dd/annotate.h>

// CHECK-LABEL: critical sections (#pragma dd delegate):

__global__ void returns(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      if (data[b] < 0)
        // CHECK-NEXT: in 'returns': refused at [[@LINE+1]]:9: the critical section returns
        return;
      data[b] += 1;
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__global__ void syncs(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      // CHECK-NEXT: in 'syncs': refused at [[@LINE+1]]:7: the critical section synchronizes threads ('__syncthreads')
      __syncthreads();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__global__ void thread_index(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      // A component (threadIdx.x) would travel in the message; the
      // variable as a whole does not.
      // CHECK-NEXT: in 'thread_index': refused at [[@LINE+1]]:16: the critical section reads 'threadIdx', which differs on the server (it would read the server thread's)
      dim3 t = threadIdx;
      data[b] = t.x;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__global__ void shared_write(int *locks, int n) {
  __shared__ int seen[32];
  int b = threadIdx.x % n;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      // CHECK-NEXT: in 'shared_write': refused at [[@LINE+1]]:20: the critical section writes shared memory ('seen'), which the server cannot reach
      seen[b % 32] = 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// A plain local would come back in the reply (recognize.cu); a pointer does not.
__global__ void local_used_after(int *data, int *out, int *locks, int n) {
  int b = threadIdx.x % n;
  int *old = nullptr;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      // CHECK-NEXT: in 'local_used_after': refused at [[@LINE+1]]:11: the critical section writes 'old', which the kernel uses outside it; only a local of the client that is no parameter, array or pointer can come back in the server's reply
      old = data + b;
      *old += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[threadIdx.x] = *old;
}

__global__ void breaks(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  bool done = false;
  #pragma dd delegate
  while (!done) {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      for (int k = 0; k < 4; ++k)
        if (data[k] == 0)
          break; // leaves the inner loop only: fine
      if (data[b] > 100)
        // CHECK-NEXT: in 'breaks': refused at [[@LINE+1]]:9: the critical section leaves the try-lock loop with 'break'
        break;
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  }
}

__global__ void wrong_unlock(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  bool done = false;
  // CHECK-NEXT: [[@LINE+2]]:3 in 'wrong_unlock': refused at [[@LINE+2]]:3: the critical section releases a lock it did not take
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b + 1], 0);
      done = true;
    }
  } while (!done);
}

__global__ void spin_lock(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  // A spin lock (lock, then the section after the loop) is not a try-lock
  // loop; the refusal says which it is and how to write it.
  // CHECK-NEXT: [[@LINE+2]]:3 in 'spin_lock': refused at [[@LINE+2]]:3: a spin lock: the loop only waits for the lock, and the critical section follows it; only try-lock loops are delegated (written as Listing 4.1, do { if (try_lock(L)) { ...; __threadfence(); unlock(L); done = true; } } while (!done), it would be)
  #pragma dd delegate
  while (atomicCAS(&locks[b], 0, 1) != 0) {
  }
  data[b] += 1;
  atomicExch(&locks[b], 0);
}

__global__ void for_loop(int *data, int *locks, int n) {
  int b = threadIdx.x % n;
  // CHECK-NEXT: [[@LINE+2]]:3 in 'for_loop': refused at [[@LINE+2]]:3: a delegated critical section must be a do/while or while try-lock loop
  #pragma dd delegate
  for (bool done = false; !done;) {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  }
}
