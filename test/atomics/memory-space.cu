// Which memory an atomic updates decides its rewrite: shared-memory atomics
// are native instructions of the SM, and a per-warp histogram in shared
// memory ran 10x slower through the vote (issue 15). The memory is the
// analysis's (the root object of the address, followed through arithmetic,
// locals and each calling context): shared -> left as written (a scalar
// address of a 64-bit word still becomes one atomic per warp); both or unknown ->
// dd::atomic_OP_auto, which decides per lane at run time; an annotation
// still forces its variant.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s --check-prefix=OUT
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -diag-suppress 20199 -c %t.cu -o %t.o
// OUT: __device__ void add_one(unsigned *hist, unsigned bin) { atomicAdd(hist + bin, 1u); }
// OUT: __device__ void add_any(unsigned *hist, unsigned bin) { dd::atomic_add_auto(hist + bin, 1u); }
// CHECK: memory-space.cu:[[@LINE+1]]:57: remark: atomicAdd left unchanged: the address is in shared memory, whose atomics are native and cheaper than combining lanes [-Rdecoupler]
__device__ void add_one(unsigned *hist, unsigned bin) { atomicAdd(hist + bin, 1u); }
// CHECK: memory-space.cu:[[@LINE+1]]:57: remark: atomicAdd -> dd::atomic_add_auto: nonaffine address in memory the pass cannot place: in global memory lanes that hit the same word are combined, in shared memory the atomic stays as written (decided at run time) [-Rdecoupler]
__device__ void add_any(unsigned *hist, unsigned bin) { atomicAdd(hist + bin, 1u); }

__global__ void warp_hist(const unsigned *keys, unsigned n, unsigned *out, unsigned *global_hist) {
  __shared__ unsigned hist[4 * 256];
  __shared__ unsigned total;
  __shared__ unsigned long long wide;
  unsigned *mine = hist + (threadIdx.x / 32) % 4 * 256;
  for (unsigned b = threadIdx.x; b < 4 * 256; b += blockDim.x)
    hist[b] = 0;
  if (threadIdx.x == 0)
    total = wide = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    add_one(mine, keys[i] & 255);
    // CHECK: memory-space.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the address is in shared memory, whose atomics are native and cheaper than combining lanes [-Rdecoupler]
    atomicAdd(&mine[keys[i] >> 24], 1u);
    // CHECK: memory-space.cu:[[@LINE+1]]:5: remark: atomicAdd left unchanged: the address is the same in every lane, and nvcc already combines the lanes of a warp at such an address for unsigned int (one reduction, one atomic) [-Rdecoupler]
    atomicAdd(&total, 1u);
    // CHECK: memory-space.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_uniform: scalar address: one atomic per warp [-Rdecoupler]
    atomicAdd(&wide, 1ull);
    add_any(hist, keys[i] & 255);
    add_any(global_hist, keys[i]);
#pragma dd atomic(vr)
    // CHECK: memory-space.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: annotated atomic(vr) [-Rdecoupler]
    atomicAdd(&hist[keys[i] & 7], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 256)
    out[blockIdx.x * 256 + threadIdx.x] = hist[threadIdx.x] + total + unsigned(wide);
}
