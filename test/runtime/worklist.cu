// dd::Queue::push needs sm_70 (__match_any_sync) and says so below; the rest
// of <dd/worklist.cuh> works on any architecture.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_70 -DUSE_PUSH %s
// RUN: %arch_clang --cuda-gpu-arch=sm_60 %s
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 -DUSE_PUSH %s 2>&1 | FileCheck %s
// CHECK: error: static assertion failed {{.*}}dd::Queue::push needs sm_70 or newer for __match_any_sync
#include <dd/worklist.cuh>

__global__ void expand(dd::Queue<unsigned> in_queue, dd::Queue<unsigned> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in_queue.items()[i] % 2 == 0) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700 || defined(USE_PUSH)
    out.push(in_queue.items()[i] / 2);
#endif
  }
}

template class dd::DoubleBuffer<unsigned>;
