// <dd/split_launch.h>, the launcher side of the split pass, compiles for every
// architecture (the split kernels themselves need sm_80: affine-queue.cu).
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
#include <dd/split_launch.h>

__global__ void original(float *x) { x[threadIdx.x] = 0; }
__global__ void original_split(float *x) { x[threadIdx.x] = 1; }

// As a generated launcher calls it.
void original_launch(float *x, dim3 grid, dim3 block, cudaStream_t stream) {
  static dd::SplitLaunchState state;
  static const dd::SplitKernelInfo info{"original", 256, 4};
  dd::split_launch(
      state, info, reinterpret_cast<const void *>(original_split),
      reinterpret_cast<const void *>(original), grid, block, 0, stream, -1,
      [&](auto g, auto b, auto shmem, auto s) { original_split<<<g, b, shmem, s>>>(x); },
      [&](auto g, auto b, auto shmem, auto s) { original<<<g, b, shmem, s>>>(x); });
}
