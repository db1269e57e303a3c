// What the delegate rewrite refuses, each an error with a caret at the
// construct: exit status 1 and no output file. Recognition's refusals
// (refuse.cu lists them all for --analyze) are errors when rewriting; so are
// the rewrite's own: a kernel it cannot replace everywhere, a launch it
// cannot pair with servers, a critical section whose effects the kernel
// reads after it, a lock array used elsewhere.
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=delegate %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <cuda_runtime.h>

// CHECK: rewrite-refuse.cu:[[@LINE+10]]:9: error: cannot delegate this critical section: the critical section returns
// CHECK-NEXT: {{^}} [[#@LINE+9]] |         return;
// CHECK-NEXT: {{^}}      |         ^
__global__ void returns(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      if (data[b] < 0)
        return;
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: rewrite-refuse.cu:[[@LINE+8]]:7: error: cannot delegate this critical section: the critical section synchronizes threads ('__syncthreads')
__global__ void syncs(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      __syncthreads();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// A local would come back in the reply (rewrite-reply.cu); a parameter does not.
// CHECK: rewrite-refuse.cu:[[@LINE+7]]:11: error: cannot delegate this critical section: the critical section writes 'old', which the kernel uses outside it; only a local of the client that is no parameter, array or pointer can come back in the server's reply
__global__ void returns_value(int *data, int *locks, int *out, int old) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      old = data[b];
      data[b] = old + 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  out[threadIdx.x] = old;
}

// CHECK: rewrite-refuse.cu:[[@LINE+5]]:3: error: cannot delegate this critical section: not a try-lock loop
__global__ void not_a_lock(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicAdd(&locks[b], 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__shared__ int tile[8];
__global__ void reads_shared(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      // CHECK: rewrite-refuse.cu:[[@LINE+1]]:18: error: cannot delegate this critical section: the critical section reads shared memory ('tile'), which is the client block's
      data[b] += tile[b];
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: rewrite-refuse.cu:[[@LINE+13]]:3: error: cannot delegate this critical section: the lock array 'locks' is used outside the critical section; the rewrite replaces its locks by the servers' and cannot keep this use consistent
__global__ void lock_elsewhere(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  atomicAdd(
  locks, 0);
}

// CHECK: rewrite-refuse.cu:[[@LINE+1]]:17: error: cannot delegate this critical section: kernel 'never_launched' is not launched in this file; the delegate rewrite replaces its launches and cannot rewrite one in another translation unit
__global__ void never_launched(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__global__ void address_taken(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

void launch_address_taken(int *data, int *locks) {
  void *args[] = {&data, &locks};
  // CHECK: rewrite-refuse.cu:[[@LINE+3]]:35: error: cannot delegate this critical section: kernel 'address_taken' is used other than by a <<<...>>> launch (its address is taken, or it is launched through cudaLaunchKernel); the rewrite replaces the kernel and cannot rewrite this use
  // CHECK-NEXT: {{^}} [[#@LINE+2]] |   cudaLaunchKernel((const void *)&address_taken, dim3(1), dim3(32), args, 0, 0);
  // CHECK-NEXT: {{^}}      |                                   ^
  cudaLaunchKernel((const void *)&address_taken, dim3(1), dim3(32), args, 0, 0);
}

__global__ void dynamic_shared(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

void launch_dynamic_shared(int *data, int *locks) {
  // CHECK: rewrite-refuse.cu:[[@LINE+1]]:27: error: cannot delegate this critical section: this launch of 'dynamic_shared' gives the kernel dynamic shared memory; the delegate client needs it for its message stages
  dynamic_shared<<<1, 32, 128>>>(data, locks);
}

// Two critical sections share the kernel's servers: their annotations must
// agree on the lock table (rewrite-two-sections.cu: the rewrite).
// CHECK: rewrite-refuse.cu:[[@LINE+5]]:3: error: cannot delegate this critical section: kernel 'two_sections' also has the critical section at line [[#@LINE+14]], which cannot be delegated; a kernel's critical sections are delegated together
__global__ void two_sections(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false, again = false;
  #pragma dd delegate locks(1024)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
  // CHECK: rewrite-refuse.cu:[[@LINE+1]]:14: error: cannot delegate this critical section: locks(2048) differs from another critical section's locks(1024) in kernel 'two_sections'; its sections share one server lock table
  #pragma dd delegate locks(2048)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 2;
      atomicExch(&locks[b], 0);
      again = true;
    }
  } while (!again);
}

__device__ void in_device_function(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  // CHECK: rewrite-refuse.cu:[[@LINE+2]]:3: error: cannot delegate this critical section: the critical section is in 'in_device_function', not a kernel; the delegate rewrite replaces a kernel and its launches
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: rewrite-refuse.cu:[[@LINE+4]]:14: error: cannot delegate this critical section: locks(100000): a server block holds at most 8192 lock words in its static shared memory (48 KB)
__global__ void too_many_locks(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate locks(100000)
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: rewrite-refuse.cu:[[@LINE+6]]:26: error: cannot delegate this critical section: the lock index 'b |= 0' has side effects; the rewrite evaluates it more than once
__global__ void index_side_effect(int *data, int *locks) {
  int b = threadIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b |= 0], 0, 1) == 0) {
      data[0] += 1;
      atomicExch(&locks[b |= 0], 0);
      done = true;
    }
  } while (!done);
}

void run(int *data, int *locks, int *out) {
  returns<<<1, 32>>>(data, locks);
  syncs<<<1, 32>>>(data, locks);
  returns_value<<<1, 32>>>(data, locks, out, 0);
  not_a_lock<<<1, 32>>>(data, locks);
  lock_elsewhere<<<1, 32>>>(data, locks);
  two_sections<<<1, 32>>>(data, locks);
  too_many_locks<<<1, 32>>>(data, locks);
  index_side_effect<<<1, 32>>>(data, locks);
}
