// Inline assembly that may end a thread, wait at a barrier or publish, and
// libcu++'s cuda::ptx wrappers of such instructions, keep a kernel's
// histogram from being privatized: a thread that runs `exit` never merges
// its share of the block's copy, `bar.sync` after an early return pairs
// with the merge's barrier, and a fence before the last-block read
// publishes totals without the block's updates. Assembly that only reads
// registers (`%%laneid`) does not (test/atomics/privatize-coarse.cu).
// Before (found by an adversarial round, 2026-11-29), all three were
// privatized. Each atomic is now warp-aggregated instead.
// RUN: %decoupler --passes=atomics -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cuda/ptx>

// CHECK: privatize-assembly.cu:[[@LINE+6]]:3: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'early_barrier' has inline assembly that may end the thread, wait or publish (line [[@LINE+5]]), where a block-private copy of 'bins' could not follow
__global__ void early_barrier(const int *keys, int n, unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  asm volatile("bar.sync 0;" ::: "memory");
  atomicAdd(&bins[keys[i] & 255], 1u);
}

// CHECK: privatize-assembly.cu:[[@LINE+5]]:3: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'exits' has inline assembly that may end the thread, wait or publish (line [[@LINE+7]])
__global__ void exits(const int *keys, int n, unsigned *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&bins[keys[i] & 255], 1u);
  if (keys[i] == 42)
    asm volatile("exit;");
}

// CHECK: privatize-assembly.cu:[[@LINE+5]]:5: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'last_block' has 'cuda::ptx::fence' (line [[@LINE+6]])
__global__ void last_block(const unsigned *keys, unsigned n, unsigned *bins,
                           const unsigned *view, unsigned *done, unsigned *total) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&bins[keys[i] & 255], 1u);
  cuda::ptx::fence(cuda::ptx::sem_sc, cuda::ptx::scope_gpu);
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0)
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0) {
    unsigned s = 0;
    for (int b = 0; b < 256; ++b)
      s += ((const volatile unsigned *)view)[b];
    *total = s;
  }
}
