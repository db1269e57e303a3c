// <dd/context.cuh> compiles for every architecture nvcc has; like the
// channel it needs sm_70 for device code, and says so below.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed {{.*}}needs sm_70 or newer for __nanosleep
#include <dd/context.cuh>

struct Msg {
  unsigned a, b;
};
template class dd::Context<Msg>;
