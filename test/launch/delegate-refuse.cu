// What the launch rewrite refuses where the pass replaces the kernel
// (delegate): each an error with a caret, exit status 1, no output. A launch
// through a macro, in a template (its instantiations may launch other
// kernels), in an included file (where the launcher cannot go); a template
// kernel; a kernel defined outside its namespace; a launcher name already
// taken; a default argument declared after the place the launcher's
// declaration must go. The input compiles.
// RUN: rm -f %t.cu
// RUN: not %decoupler --passes=delegate %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cu
// REQUIRES: nvcc
// RUN: %nvcc -c %s -o %t.o
#include <dd/annotate.h>

__device__ bool try_lock(int *l) { return atomicCAS(l, 0, 1) == 0; }
__device__ void unlock(int *l) {
  __threadfence();
  atomicExch(l, 0);
}

#define LAUNCH(k, ...) k<<<1, 64>>>(__VA_ARGS__)

__global__ void through_macro(int *hits, int *locks) {
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

void run_macro(int *hits, int *locks) {
  // CHECK: delegate-refuse.cu:[[@LINE+1]]:3: error: cannot delegate this critical section: this launch of 'through_macro' is written through a macro; it cannot be rewritten
  LAUNCH(through_macro, hits, locks);
}

__global__ void in_template(int *hits, int *locks) {
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

template <typename T> void run_template(T *hits, int *locks) {
  // CHECK: delegate-refuse.cu:[[@LINE+1]]:3: error: cannot delegate this critical section: this launch of 'in_template' is in a template (its instantiations may launch other kernels); it cannot be rewritten
  in_template<<<1, 64>>>(hits, locks);
}
template void run_template<int>(int *, int *);

// CHECK: Inputs/launch-elsewhere.h:8:57: error: cannot delegate this critical section: this launch of 'from_header' is in an included file (only the main file is rewritten); it cannot be rewritten
#include "Inputs/launch-elsewhere.h"

__global__ void from_header(int *data, int *locks) {
  int slot = threadIdx.x % 64;
  bool done = false;
#pragma dd delegate
  while (!done) {
    if (try_lock(&locks[slot])) {
      data[slot] += 1;
      unlock(&locks[slot]);
      done = true;
    }
  }
}

// CHECK: delegate-refuse.cu:[[@LINE+2]]:17: error: cannot delegate this critical section: kernel 'templated' is a template or a member
template <typename T>
__global__ void templated(T *hits, int *locks) {
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
void run_templated(int *hits, int *locks) { templated<<<1, 64>>>(hits, locks); }

namespace q {
__global__ void outside(int *hits, int *locks);
}
// CHECK: delegate-refuse.cu:[[@LINE+1]]:20: error: cannot delegate this critical section: kernel 'outside' is defined outside its namespace; its launcher is defined beside it and would not be in the namespace
__global__ void q::outside(int *hits, int *locks) {
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
void run_outside(int *hits, int *locks) { q::outside<<<1, 64>>>(hits, locks); }

void taken_launch(int);
// CHECK: delegate-refuse.cu:[[@LINE+1]]:17: error: cannot delegate this critical section: the file already declares 'taken_launch', the name of the launcher the rewrite generates for 'taken'
__global__ void taken(int *hits, int *locks) {
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
void run_taken(int *hits, int *locks) { taken<<<1, 64>>>(hits, locks); }

// The launcher is declared after the first declaration (before the first
// launch): the default that a later launch relies on comes after it.
__global__ void late_default(int *hits, int *locks, int by);
void first_use(int *hits, int *locks) { late_default<<<1, 64>>>(hits, locks, 1); }
// CHECK: delegate-refuse.cu:[[@LINE+1]]:57: error: cannot delegate this critical section: the default argument of parameter 3 of 'late_default' is declared after the place the launcher is declared; write the argument in the launch
__global__ void late_default(int *hits, int *locks, int by = 2);
void second_use(int *hits, int *locks) { late_default<<<1, 64>>>(hits, locks); }
__global__ void late_default(int *hits, int *locks, int by) {
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
