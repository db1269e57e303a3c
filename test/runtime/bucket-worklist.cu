// <dd/bucket_worklist.cuh> compiles for every architecture nvcc has; it needs
// sm_70 (__nanosleep) and says so below.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_70 %s
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed {{.*}}<dd/bucket_worklist.cuh> needs sm_70 or newer for __nanosleep
#include <dd/bucket_worklist.cuh>

template class dd::buckets::Worker<512>;
template class dd::buckets::Manager<512>;
