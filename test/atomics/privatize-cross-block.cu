// A block-private copy merges at the kernel's end. A kernel that lets other
// blocks see its writes before then, through a fence of device or system
// scope (the last-block pattern: each block fences and counts, the last one
// reads the totals) or a grid-wide barrier, may read the array after that
// point through any pointer: here through 'view', which the program
// passes the same buffer as. The same holds after an atomic that releases
// at device scope (libcu++'s atomic_ref, seq_cst by default; nvcc's
// __nv_atomic_* builtins). Such a kernel is not privatized (its atomics are
// still combined per warp, which does not defer them); a block-scope fence,
// a relaxed atomic or a block-scope one does not stop it. The program checks
// every result against the CPU.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda/atomic>
#include <vector>
namespace cg = cooperative_groups;

// CHECK-LABEL: void last_block(
// CHECK: dd::atomic_add_vr(&h[in[i] & 255], 1u);
__global__ void last_block(const int *in, int n, unsigned *h,
                           const unsigned *view, unsigned *count,
                           unsigned *totals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // REMARK: privatize-cross-block.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'last_block' lets other blocks see its writes before it ends (__threadfence(), line [[@LINE+2]]): a block-private copy would hold back the updates of 'h' past that point)
    atomicAdd(&h[in[i] & 255], 1u);
  __threadfence();
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last)
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
      totals[b] = view[b];
}

__device__ void wait_for_grid() { cg::this_grid().sync(); }

// CHECK-LABEL: void grid_phases(
// CHECK: dd::atomic_add_vr(&h[in[i] & 255], 1u);
__global__ void grid_phases(const int *in, int n, unsigned *h,
                            const unsigned *view, unsigned *totals) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    // REMARK: privatize-cross-block.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'grid_phases' lets other blocks see its writes before it ends ('wait_for_grid', which reaches grid_group::sync(), line [[@LINE+2]])
    atomicAdd(&h[in[i] & 255], 1u);
  wait_for_grid();
  if (blockIdx.x == 0)
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
      totals[b] = view[b];
}

// A fence of block scope orders nothing for other blocks: privatized.
// CHECK-LABEL: void block_fence(
// CHECK: dd_private_h.update(in[i] & 255, 1u);
__global__ void block_fence(const int *in, int n, unsigned *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // REMARK: privatize-cross-block.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd_private_h.update
    atomicAdd(&h[in[i] & 255], 1u);
  __threadfence_block();
}

// The last-block pattern as the memory model writes it: no fence, the
// counter's read-modify-write releases (and acquires) at device scope.
// CHECK-LABEL: void last_block_release(
// CHECK: dd::atomic_add_vr(&h[in[i] & 255], 1u);
__global__ void last_block_release(const int *in, int n, unsigned *h,
                                   const unsigned *view, unsigned *count,
                                   unsigned *totals) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // REMARK: privatize-cross-block.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'last_block_release' lets other blocks see its writes before it ends (atomic_ref::fetch_add(), line [[@LINE+5]])
    atomicAdd(&h[in[i] & 255], 1u);
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0)
    last = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*count)
               .fetch_add(1u) == gridDim.x - 1;
  __syncthreads();
  if (last)
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
      totals[b] = view[b];
}

// CHECK-LABEL: void nv_release(
// CHECK: dd::atomic_add_vr(&h[in[i] & 255], 1u);
__global__ void nv_release(const int *in, int n, unsigned *h, unsigned *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // REMARK: privatize-cross-block.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'nv_release' lets other blocks see its writes before it ends (__nv_atomic_fetch_add(), line [[@LINE+3]])
    atomicAdd(&h[in[i] & 255], 1u);
  if (threadIdx.x == 0)
    __nv_atomic_fetch_add(count, 1u, __NV_ATOMIC_RELEASE,
                          __NV_THREAD_SCOPE_DEVICE);
}

// Relaxed, or of block scope: they publish nothing to other blocks.
// CHECK-LABEL: void relaxed_count(
// CHECK: dd_private_h.update(in[i] & 255, 1u);
__global__ void relaxed_count(const int *in, int n, unsigned *h,
                              unsigned *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // REMARK: privatize-cross-block.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd_private_h.update
    atomicAdd(&h[in[i] & 255], 1u);
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*count).fetch_add(
        1u, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block>(count[1]).store(1u);
  }
}

// A fence before every update orders nothing of them: privatized. In a loop
// the next round's fence comes after this round's update: not privatized.
// CHECK-LABEL: void fence_first(
// CHECK: dd_private_h.update(in[i] & 255, 1u);
__global__ void fence_first(const int *in, int n, unsigned *h, unsigned *seen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  seen[i] = 1;
  __threadfence();
  // REMARK: privatize-cross-block.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd_private_h.update
  atomicAdd(&h[in[i] & 255], 1u);
}

// CHECK-LABEL: void fence_in_loop(
// CHECK: dd::atomic_add_vr(&h[in[i] & 255], 1u);
__global__ void fence_in_loop(const int *in, int n, unsigned *h, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    __threadfence();
    int i = (blockIdx.x * blockDim.x + threadIdx.x + r * 7) % n;
    // REMARK: privatize-cross-block.cu:[[@LINE+1]]:5: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'fence_in_loop' lets other blocks see its writes before it ends (__threadfence(), line [[@LINE-2]])
    atomicAdd(&h[in[i] & 255], 1u);
  }
}

int main() {
  const int Sizes[] = {1, 255, 4096, 100000, 1 << 20};
  int Bad = 0;
  unsigned long long Hash = 14695981039346656037ull;
  auto Mix = [&](unsigned V) { Hash = (Hash ^ V) * 1099511628211ull; };
  int Device = 0, Sms = 0, PerSm = 0;
  cudaGetDevice(&Device);
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, Device);
  // The cooperative launch must fit: size its grid from the occupancy.
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, grid_phases, 256, 0);
  for (int N : Sizes) {
    std::vector<int> In(N);
    for (int I = 0; I < N; ++I)
      In[I] = int((I * 2654435761u) >> 7) % (I % 3 == 0 ? 7 : 1000);
    std::vector<unsigned> Want(256, 0);
    for (int V : In)
      ++Want[V & 255];
    int *dIn;
    unsigned *dH, *dCount, *dTotals;
    cudaMalloc(&dIn, N * sizeof(int));
    cudaMalloc(&dH, 256 * sizeof(unsigned));
    cudaMalloc(&dCount, sizeof(unsigned));
    cudaMalloc(&dTotals, 256 * sizeof(unsigned));
    cudaMemcpy(dIn, In.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    for (int Kernel = 0; Kernel < 4; ++Kernel)
      for (int Rep = 0; Rep < 3; ++Rep) { // launchers probe, then choose
        cudaMemset(dH, 0, 256 * sizeof(unsigned));
        cudaMemset(dCount, 0, sizeof(unsigned));
        cudaMemset(dTotals, 0, 256 * sizeof(unsigned));
        const unsigned Grid = (N + 255) / 256;
        if (Kernel == 0) {
          last_block<<<Grid, 256>>>(dIn, N, dH, dH, dCount, dTotals);
        } else if (Kernel == 1) {
          void *Args[] = {&dIn, &N, &dH, &dH, &dTotals};
          cudaLaunchCooperativeKernel((void *)grid_phases, dim3(Sms * PerSm),
                                      dim3(256), Args, 0, 0);
        } else if (Kernel == 2) {
          block_fence<<<Grid, 256>>>(dIn, N, dH);
        } else {
          last_block_release<<<Grid, 256>>>(dIn, N, dH, dH, dCount, dTotals);
        }
        std::vector<unsigned> H(256), Totals(256);
        cudaMemcpy(H.data(), dH, 256 * sizeof(unsigned),
                   cudaMemcpyDeviceToHost);
        cudaMemcpy(Totals.data(), dTotals, 256 * sizeof(unsigned),
                   cudaMemcpyDeviceToHost);
        if (cudaDeviceSynchronize() != cudaSuccess) {
          std::printf("FAIL: CUDA error, kernel %d, n %d\n", Kernel, N);
          return 1;
        }
        for (int B = 0; B < 256; ++B) {
          Mix(H[B]);
          Mix(Totals[B]);
          if (H[B] != Want[B] || (Kernel != 2 && Totals[B] != Want[B]))
            ++Bad;
        }
      }
    cudaFree(dIn);
    cudaFree(dH);
    cudaFree(dCount);
    cudaFree(dTotals);
  }
  std::printf("%s %016llx\n", Bad ? "FAIL" : "ok", Hash);
  return Bad ? 1 : 0;
}
