// Code a critical section runs without spelling it in its body: a default
// argument or default member initializer (evaluated where it is used, on the
// server) that reads threadIdx, directly or through a callee, and a
// try-lock loop inside a lambda (another function, whose parameters and
// captures the outlining would not see), and a lambda defined in the section
// (its `return` is not the section's; before, the refusal said "the
// critical section returns"). Each is refused with its reason:
// annotated, an error and no output; under --delegate=auto a warning, shown
// by default, and the file left as written. (Before, all five were
// delegated: the first four wrote the server thread's threadIdx, the
// lambda's output did not compile.)
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=delegate %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// RUN: sed 's/#pragma dd delegate//' %s > %t.plain.cu
// RUN: %decoupler --passes=delegate --delegate=auto %t.plain.cu -o %t.auto.cu 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: cmp %t.plain.cu %t.auto.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
// AUTO: warning: --delegate=auto: try-lock loop not delegated: the critical section evaluates a default argument that reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// AUTO: warning: --delegate=auto: try-lock loop not delegated: the critical section evaluates a default argument that calls 'lane', which reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// AUTO: warning: --delegate=auto: try-lock loop not delegated: the critical section calls 'Rec', which reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// AUTO: warning: --delegate=auto: try-lock loop not delegated: the critical section evaluates a default member initializer that reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// AUTO: warning: --delegate=auto: try-lock loop not delegated: the critical section is in a lambda or a local class's function inside the kernel; the delegate pass outlines sections of the kernel's own body
// AUTO: warning: --delegate=auto: try-lock loop not delegated: the critical section defines a lambda, which the delegate pass does not follow
#include <dd/annotate.h>

__device__ int lane() { return threadIdx.x % 32; }
__device__ void stamp(int *who, int b, unsigned tid = threadIdx.x) { who[b] = tid; }
__device__ void stamp_lane(int *who, int b, int l = lane()) { who[b] = l; }
struct Rec {
  int t = threadIdx.x;
  int weight = 1;
};

// CHECK: refuse-hidden-code.cu:[[@LINE+9]]:7: error: cannot delegate this critical section: the critical section evaluates a default argument that reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// CHECK: refuse-hidden-code.cu:[[@LINE-8]]:55: note: a default argument written here
__global__ void default_arg(int *sum, int *who, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      sum[b] += 1;
      stamp(who, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: refuse-hidden-code.cu:[[@LINE+10]]:7: error: cannot delegate this critical section: the critical section evaluates a default argument that calls 'lane', which reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// CHECK: refuse-hidden-code.cu:[[@LINE-23]]:53: note: a default argument written here
// CHECK: refuse-hidden-code.cu:[[@LINE-26]]:32: note: 'lane' reads 'threadIdx.x' here
__global__ void default_arg_callee(int *sum, int *who, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      sum[b] += 1;
      stamp_lane(who, b);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: refuse-hidden-code.cu:[[@LINE+8]]:11: error: cannot delegate this critical section: the critical section calls 'Rec', which reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// CHECK: refuse-hidden-code.cu:[[@LINE-38]]:11: note: 'Rec' reads 'threadIdx.x' here
__global__ void member_init(int *sum, int *who, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      Rec r;
      sum[b] += r.weight;
      who[b] = r.t;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: refuse-hidden-code.cu:[[@LINE+8]]:12: error: cannot delegate this critical section: the critical section evaluates a default member initializer that reads 'threadIdx.x', which differs on the server (it would read the server thread's)
// CHECK: refuse-hidden-code.cu:[[@LINE-55]]:11: note: a default member initializer written here
__global__ void aggregate_init(int *sum, int *who, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      Rec r{};
      sum[b] += r.weight;
      who[b] = r.t;
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}

// CHECK: refuse-hidden-code.cu:[[@LINE+7]]:5: error: cannot delegate this critical section: the critical section is in a lambda or a local class's function inside the kernel; the delegate pass outlines sections of the kernel's own body
// CHECK: refuse-hidden-code.cu:[[@LINE+3]]:14: note: that function starts here
__global__ void in_lambda(int *sum, int *locks) {
  int b = blockIdx.x % 8;
  auto add = [&](int v) {
    bool done = false;
    #pragma dd delegate
    do {
      if (atomicCAS(&locks[b], 0, 1) == 0) {
        sum[b] += v;
        atomicExch(&locks[b], 0);
        done = true;
      }
    } while (!done);
  };
  add(1);
}

// CHECK: refuse-hidden-code.cu:[[@LINE+7]]:20: error: cannot delegate this critical section: the critical section defines a lambda, which the delegate pass does not follow
__global__ void lambda_in_section(int *sum, int *locks) {
  int b = blockIdx.x % 8;
  bool done = false;
  #pragma dd delegate
  do {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      auto clamp = [](int v) { if (v > 100) return 100; return v; };
      sum[b] = clamp(sum[b] + 1);
      atomicExch(&locks[b], 0);
      done = true;
    }
  } while (!done);
}
