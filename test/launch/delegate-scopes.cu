// Launch rewriting (passes/support/LaunchRewriter.h) through the delegate
// pass, in every scope a launch can name a kernel from: qualified from
// outside its namespace (the launcher call qualified as the launch is),
// nested namespaces, a using-directive, a using-declaration and an
// anonymous namespace (the launcher fully qualified), launches in member
// functions, a kernel declared first and defined after its launches (the
// launcher declared after that declaration, in its namespace), an extern
// "C" kernel. The output compiles without a warning.
// RUN: %decoupler --no-line-directives --passes=delegate %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <dd/annotate.h>

__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__device__ void unlock(int *l) {
  __threadfence();
  atomicExch(l, 0);
}

namespace ns {
__global__ void count(int *hits, int *locks) {
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
// CHECK: static void count_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, int *hits, int *locks) {
// CHECK-NEXT: (void)dd_shmem; // decoupler: 0: launches with dynamic shared memory are not delegated

// CHECK: void again(int *hits, int *locks) { count_launch(1, 64, 0, 0, hits, locks); }
void again(int *hits, int *locks) { count<<<1, 64>>>(hits, locks); }
} // namespace ns

namespace outer {
namespace inner {
__global__ void deep(int *hits, int *locks) {
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
} // namespace inner

// CHECK: void from_outer(int *hits, int *locks) { inner::deep_launch(2, 64, 0, 0, hits, locks); }
void from_outer(int *hits, int *locks) { inner::deep<<<2, 64>>>(hits, locks); }
} // namespace outer

namespace viadir {
__global__ void pulled(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 3;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
} // namespace viadir

namespace viadecl {
__global__ void single(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 4;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
} // namespace viadecl

namespace {
__global__ void hidden(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 5;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
} // namespace

// A kernel declared here, launched from a member function and a function,
// defined below.
namespace early {
// CHECK: __global__ void late(int *hits, int *locks);
// CHECK-NEXT: // decoupler: late's launches go through this (defined below).
// CHECK-NEXT: static void late_launch(dim3, dim3, size_t, cudaStream_t, int *, int *);
// CHECK-NEXT: } // namespace early
__global__ void late(int *hits, int *locks);
} // namespace early

// An extern "C" kernel declared first: the launcher declared with the
// linkage its definition will have (delegate-extern-c.cu: in a block).
// CHECK: extern "C" __global__ void c_late(int *hits, int *locks);
// CHECK-NEXT: // decoupler: c_late's launches go through this (defined below).
// CHECK-NEXT: static void c_late_launch(dim3, dim3, size_t, cudaStream_t, int *, int *);
extern "C" __global__ void c_late(int *hits, int *locks);

using namespace viadir;

struct Runner {
  int *hits, *locks;
  // CHECK: void go(int n) {
  // CHECK-NEXT: ns::count_launch(n, 64, 0, 0, hits, locks);
  // CHECK-NEXT: early::late_launch(n, 64, 0, 0, hits, locks);
  // CHECK-NEXT: }
  void go(int n) {
    ns::count<<<n, 64>>>(hits, locks);
    early::late<<<n, 64>>>(hits, locks);
  }
  void go_out_of_line(int n);
};

// CHECK: void Runner::go_out_of_line(int n) { ::ns::count_launch(n, 64, 0, 0, hits, locks); }
void Runner::go_out_of_line(int n) { ::ns::count<<<n, 64>>>(hits, locks); }

// CHECK: void run(int *hits, int *locks, int n) {
// CHECK-NEXT: ns::count_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: outer::inner::deep_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: ::viadir::pulled_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: using viadecl::single;
// CHECK-NEXT: ::viadecl::single_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: ::hidden_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: early::late_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: c_late_launch(n, 64, 0, 0, hits, locks);
// CHECK-NEXT: }
void run(int *hits, int *locks, int n) {
  ns::count<<<n, 64>>>(hits, locks);
  outer::inner::deep<<<n, 64>>>(hits, locks);
  pulled<<<n, 64>>>(hits, locks);
  using viadecl::single;
  single<<<n, 64>>>(hits, locks);
  hidden<<<n, 64>>>(hits, locks);
  early::late<<<n, 64>>>(hits, locks);
  c_late<<<n, 64>>>(hits, locks);
}

namespace early {
__global__ void late(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 6;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
// CHECK: static void late_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, int *hits, int *locks) {
} // namespace early

extern "C" __global__ void c_late(int *hits, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      hits[slot] += 7;
      unlock(&locks[slot]);
      done = true;
    }
  }
}
