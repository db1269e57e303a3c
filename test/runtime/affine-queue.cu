// dd::AffineQueue needs sm_80 (mbarrier, cp.async), bulk copies on sm_90 and
// 16-byte cp.async on sm_80; below sm_80 it says so where it is used, and a
// file that only includes it (as every split-pass output does) compiles.
// REQUIRES: nvcc
// RUN: %arch_nvcc -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 -DUSE_QUEUE %s -o %t.o
// RUN: %arch_nvcc -gencode=arch=compute_90,code=sm_90 -DDD_AFFINE_QUEUE_NO_BULK -DUSE_QUEUE %s -o %t.o
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: not %arch_nvcc -gencode=arch=compute_75,code=sm_75 -DUSE_QUEUE %s -o %t.o 2>&1 | FileCheck %s
// CHECK: error: static assertion failed with "dd::StageRing (dd::AffineQueue) needs sm_80 or newer (mbarrier, cp.async)"
// CHECK: error: static assertion failed with "dd::AffineQueue needs sm_80 or newer (mbarrier, cp.async)"
#include <dd/affine_queue.cuh>

__global__ void consume(const float *in, float *out, unsigned n) {
#if defined(USE_QUEUE)
  using Queue = dd::AffineQueue<float, 256, 2>;
  __shared__ typename Queue::Storage storage;
  Queue queue(storage);
  queue.init(8);
  typename Queue::Cursor c{};
  if (threadIdx.x >= 256) {
    queue.acquire(c);
    queue.copy_tile_async(c, 0, in, 0, n < 256 ? n : 256);
    queue.commit(c);
  } else {
    queue.wait(c);
    out[threadIdx.x] = queue.tile(c)[threadIdx.x];
    queue.release(c);
  }
#else
  out[threadIdx.x] = in[threadIdx.x];
#endif
}
