// A kernel that returns early is privatized with its returns turned into
// jumps to the merge; a return in a local class's member function returns
// from that function and stays. Before (found by an adversarial round,
// 2026-11-29), it became `goto dd_private_merge;`, which nvcc rejected.
// RUN: %decoupler --passes=atomics %s -o %t.cu
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o

// CHECK: struct Idx {
// CHECK-NEXT: __device__ static unsigned of() { return blockIdx.x * blockDim.x + threadIdx.x; }
// CHECK: if (i >= n)
// CHECK: goto dd_private_merge;
__global__ void hist(const unsigned *keys, unsigned n, unsigned *bins) {
  struct Idx {
    __device__ static unsigned of() { return blockIdx.x * blockDim.x + threadIdx.x; }
  };
  const unsigned i = Idx::of();
  if (i >= n)
    return;
  atomicAdd(&bins[keys[i] & 255], 1u);
}
