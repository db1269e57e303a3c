// A critical section runs on a server thread, so the delegate pass decides
// its legality over the functions it calls, transitively (issue 13): a
// callee that reads threadIdx or the lane id, synchronizes, uses shared
// memory or inline assembly, a callee without a body in the file, a call
// through a function pointer, a virtual call and recursion are refused, at the call in the
// critical section with a note at the cause. Annotated: errors, no output.
// Under --delegate=auto (the same kernels without the annotation): the same
// reasons as warnings, shown by default, and the file is left as written.
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=delegate %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// RUN: sed 's/#pragma dd delegate//' %s > %t.plain.cu
// RUN: %decoupler --passes=delegate --delegate=auto %t.plain.cu -o %t.auto.cu 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: cmp %t.plain.cu %t.auto.cu
// REQUIRES: nvcc
// RUN: %nvcc -rdc=true -c %s -o %t.o
#include <dd/annotate.h>

__device__ unsigned lane_slot() { return threadIdx.x % 32; }
__device__ void record(int *log, int b) { log[b] = lane_slot(); }

// CHECK: refuse-callee.cu:[[@LINE+15]]:7: error: cannot delegate this critical section: the critical section calls 'record', which calls 'lane_slot', which reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// CHECK-NEXT: {{^}} [[#@LINE+14]] |       record(log, b);
// CHECK-NEXT: {{^}}      |       ^
// CHECK-NEXT: refuse-callee.cu:[[@LINE-6]]:42: note: 'lane_slot' reads 'threadIdx.x' here
// AUTO: {{.*}}:[[@LINE+11]]:7: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'record', which calls 'lane_slot', which reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// AUTO-NEXT: {{^}} [[#@LINE+10]] |       record(log, b);
// AUTO-NEXT: {{^}}      |       ^
// AUTO-NEXT: {{.*}}:[[@LINE-10]]:42: note: 'lane_slot' reads 'threadIdx.x' here
__global__ void callee_reads_thread(int *data, int *log, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      record(log, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__device__ void settle(int *data, int b) {
  data[b] += 1;
  __syncthreads();
}

// CHECK: refuse-callee.cu:[[@LINE+14]]:7: error: cannot delegate this critical section: the critical section calls 'settle', which synchronizes threads ('__syncthreads'); the client's block is not on the server
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       settle(data, b);
// CHECK-NEXT: {{^}}      |       ^
// CHECK-NEXT: refuse-callee.cu:[[@LINE-6]]:3: note: 'settle' synchronizes threads ('__syncthreads') here
// AUTO: {{.*}}:[[@LINE+10]]:7: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'settle', which synchronizes threads ('__syncthreads'); the client's block is not on the server
// AUTO-NEXT: {{^}} [[#@LINE+9]] |       settle(data, b);
// AUTO-NEXT: {{^}}      |       ^
// AUTO-NEXT: {{.*}}:[[@LINE-10]]:3: note: 'settle' synchronizes threads ('__syncthreads') here
__global__ void callee_syncs(int *data, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      settle(data, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__shared__ int seen[8];
__device__ void mark(int b) { seen[b] = 1; }

// CHECK: refuse-callee.cu:[[@LINE+15]]:7: error: cannot delegate this critical section: the critical section calls 'mark', which uses shared memory ('seen'); on the server that is the server block's shared memory, which holds its lock table
// CHECK-NEXT: {{^}} [[#@LINE+14]] |       mark(b);
// CHECK-NEXT: {{^}}      |       ^
// CHECK-NEXT: refuse-callee.cu:[[@LINE-5]]:31: note: 'mark' uses shared memory ('seen') here
// AUTO: {{.*}}:[[@LINE+11]]:7: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'mark', which uses shared memory ('seen'); on the server that is the server block's shared memory, which holds its lock table
// AUTO-NEXT: {{^}} [[#@LINE+10]] |       mark(b);
// AUTO-NEXT: {{^}}      |       ^
// AUTO-NEXT: {{.*}}:[[@LINE-9]]:31: note: 'mark' uses shared memory ('seen') here
__global__ void callee_shared(int *data, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += 1;
      mark(b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__device__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// CHECK: refuse-callee.cu:[[@LINE+14]]:18: error: cannot delegate this critical section: the critical section calls 'smid', which contains inline assembly, which the delegate pass cannot check
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       data[b] += smid();
// CHECK-NEXT: {{^}}      |                  ^
// CHECK-NEXT: refuse-callee.cu:[[@LINE-7]]:3: note: 'smid' contains inline assembly here
// AUTO: {{.*}}:[[@LINE+10]]:18: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'smid', which contains inline assembly, which the delegate pass cannot check
// AUTO-NEXT: {{^}} [[#@LINE+9]] |       data[b] += smid();
// AUTO-NEXT: {{^}}      |                  ^
// AUTO-NEXT: {{.*}}:[[@LINE-11]]:3: note: 'smid' contains inline assembly here
__global__ void callee_asm(int *data, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] += smid();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__device__ void external_update(int *data, int b);

// CHECK: refuse-callee.cu:[[@LINE+14]]:7: error: cannot delegate this critical section: the critical section calls 'external_update', which has no body in this file; what it does on the server cannot be checked
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       external_update(data, b);
// CHECK-NEXT: {{^}}      |       ^
// CHECK-NEXT: refuse-callee.cu:[[@LINE-5]]:17: note: 'external_update' is declared here
// AUTO: {{.*}}:[[@LINE+10]]:7: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'external_update', which has no body in this file; what it does on the server cannot be checked
// AUTO-NEXT: {{^}} [[#@LINE+9]] |       external_update(data, b);
// AUTO-NEXT: {{^}}      |       ^
// AUTO-NEXT: {{.*}}:[[@LINE-9]]:17: note: 'external_update' is declared here
__global__ void callee_no_body(int *data, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      external_update(data, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

typedef void (*Update)(int *, int);
__device__ void add_one(int *data, int b) { data[b] += 1; }
__device__ Update chosen = add_one;

// CHECK: refuse-callee.cu:[[@LINE+12]]:7: error: cannot delegate this critical section: the critical section calls a function through a pointer, which the delegate pass cannot check
// CHECK-NEXT: {{^}} [[#@LINE+11]] |       chosen(data, b);
// CHECK-NEXT: {{^}}      |       ^
// AUTO: {{.*}}:[[@LINE+9]]:7: warning: --delegate=auto: try-lock loop not delegated: the critical section calls a function through a pointer, which the delegate pass cannot check
// AUTO-NEXT: {{^}} [[#@LINE+8]] |       chosen(data, b);
// AUTO-NEXT: {{^}}      |       ^
__global__ void indirect_call(int *data, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      chosen(data, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

struct Updater {
  __device__ virtual void apply(int *data, int b) const { data[b] += 1; }
};

// A virtual call runs the overrider of the object's dynamic type, which
// the source does not show: refused like a call through a pointer.
// CHECK: refuse-callee.cu:[[@LINE+12]]:7: error: cannot delegate this critical section: the critical section makes a virtual call decided at run time, whose overrider the delegate pass cannot check
// CHECK-NEXT: {{^}} [[#@LINE+11]] |       u->apply(data, b);
// CHECK-NEXT: {{^}}      |       ^
// AUTO: {{.*}}:[[@LINE+9]]:7: warning: --delegate=auto: try-lock loop not delegated: the critical section makes a virtual call decided at run time, whose overrider the delegate pass cannot check
// AUTO-NEXT: {{^}} [[#@LINE+8]] |       u->apply(data, b);
// AUTO-NEXT: {{^}}      |       ^
__global__ void virtual_call(const Updater *u, int *data, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      u->apply(data, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__device__ int depth(const int *next, int b) { return b < 0 ? 0 : 1 + depth(next, next[b]); }

// CHECK: refuse-callee.cu:[[@LINE+14]]:17: error: cannot delegate this critical section: the critical section calls 'depth', which calls 'depth' recursively; the delegate pass does not follow recursion
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       data[b] = depth(next, b);
// CHECK-NEXT: {{^}}      |                 ^
// CHECK-NEXT: refuse-callee.cu:[[@LINE-5]]:71: note: 'depth' calls 'depth' recursively here
// AUTO: {{.*}}:[[@LINE+10]]:17: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'depth', which calls 'depth' recursively; the delegate pass does not follow recursion
// AUTO-NEXT: {{^}} [[#@LINE+9]] |       data[b] = depth(next, b);
// AUTO-NEXT: {{^}}      |                 ^
// AUTO-NEXT: {{.*}}:[[@LINE-9]]:71: note: 'depth' calls 'depth' recursively here
__global__ void recursive_callee(int *data, const int *next, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      data[b] = depth(next, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: refuse-callee.cu:[[@LINE+12]]:18: error: cannot delegate this critical section: the critical section reads the thread's identity ('clock64'), which differs on the server (it would read the server thread's)
// CHECK-NEXT: {{^}} [[#@LINE+11]] |       stamp[b] = clock64();
// CHECK-NEXT: {{^}}      |                  ^
// AUTO: {{.*}}:[[@LINE+9]]:18: warning: --delegate=auto: try-lock loop not delegated: the critical section reads the thread's identity ('clock64'), which differs on the server (it would read the server thread's)
// AUTO-NEXT: {{^}} [[#@LINE+8]] |       stamp[b] = clock64();
// AUTO-NEXT: {{^}}      |                  ^
__global__ void reads_clock(long long *stamp, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      stamp[b] = clock64();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

__device__ unsigned my_lane() {
  unsigned lane;
  lane = __activemask();
  return lane;
}

// CHECK: refuse-callee.cu:[[@LINE+14]]:18: error: cannot delegate this critical section: the critical section calls 'my_lane', which reads the thread's identity ('__activemask'), which differs on the server (it would read the server thread's)
// CHECK-NEXT: {{^}} [[#@LINE+13]] |       owner[b] = my_lane();
// CHECK-NEXT: {{^}}      |                  ^
// CHECK-NEXT: refuse-callee.cu:[[@LINE-7]]:10: note: 'my_lane' reads the thread's identity ('__activemask') here
// AUTO: {{.*}}:[[@LINE+10]]:18: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'my_lane', which reads the thread's identity ('__activemask'), which differs on the server (it would read the server thread's)
// AUTO-NEXT: {{^}} [[#@LINE+9]] |       owner[b] = my_lane();
// AUTO-NEXT: {{^}}      |                  ^
// AUTO-NEXT: {{.*}}:[[@LINE-11]]:10: note: 'my_lane' reads the thread's identity ('__activemask') here
__global__ void callee_reads_identity(unsigned *owner, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      owner[b] = my_lane();
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}
