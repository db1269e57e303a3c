// A plain send does not wait for the critical section. Where the kernel,
// after the section, lets other blocks see its writes (the last-block
// pattern: a fence, a counter, the last block reads the totals, here
// through 'view', which the program passes the same buffer as; or an
// atomic that releases at device scope; or a grid-wide barrier), the
// section must have run by then: each client waits for the server's reply.
// The fence inside the section moves to the server with it and does not
// count. The program checks the totals against the CPU.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <cstdio>
#include <cuda/atomic>
#include <vector>

// CHECK: struct totals_message {
// CHECK: unsigned long long dd_reply;
// CHECK: __global__ void totals_client(
// CHECK: dd_replies.call(
__global__ void totals(const int *keys, const int *vals, int n, int *sum,
                       int *locks, const int *view, unsigned *count,
                       int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = keys[i] & 1023;
    bool done = false;
    // REMARK: rewrite-publish-wait.cu:[[@LINE+2]]:5: remark: delegated the critical section (one lock) of 'totals' to server blocks: totals_client, totals_server, totals_launch; each client waits for the server's reply, since after the critical section the kernel lets other blocks see its writes at __threadfence() (line [[@LINE+12]])
#pragma dd delegate
    do {
      if (atomicCAS(&locks[b], 0, 1) == 0) {
        __threadfence(); // acquire: read what the last holder wrote
        sum[b] += vals[i];
        __threadfence();
        atomicExch(&locks[b], 0);
        done = true;
      }
    } while (!done);
  }
  __threadfence();
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0)
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last) {
    // The reader's side: without it the block may read lines of 'sum' its
    // SM cached before the other blocks' writes.
    __threadfence();
    for (int b = threadIdx.x; b < 1024; b += blockDim.x)
      out[b] = view[b];
  }
}

// Without a fence: the counter's atomic_ref::fetch_add (seq_cst) releases.
// CHECK: __global__ void totals_release_client(
// CHECK: dd_replies.call(
__global__ void totals_release(const int *keys, const int *vals, int n,
                               int *sum, int *locks, const int *view,
                               unsigned *count, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = keys[i] & 1023;
    bool done = false;
    // REMARK: rewrite-publish-wait.cu:[[@LINE+2]]:5: remark: delegated {{.*}}; each client waits for the server's reply, since after the critical section the kernel lets other blocks see its writes at atomic_ref::fetch_add() (line
#pragma dd delegate
    do {
      if (atomicCAS(&locks[b], 0, 1) == 0) {
        __threadfence(); // acquire: read what the last holder wrote
        sum[b] += vals[i];
        __threadfence();
        atomicExch(&locks[b], 0);
        done = true;
      }
    } while (!done);
  }
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0)
    last = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*count)
               .fetch_add(1u) == gridDim.x - 1;
  __syncthreads();
  if (last) {
    cuda::atomic_thread_fence(cuda::memory_order_acquire,
                              cuda::thread_scope_device);
    for (int b = threadIdx.x; b < 1024; b += blockDim.x)
      out[b] = view[b];
  }
}

int main() {
  const int Sizes[] = {1, 1000, 65536, 1 << 20};
  int Bad = 0;
  unsigned long long Hash = 14695981039346656037ull;
  for (int N : Sizes) {
    std::vector<int> Keys(N), Vals(N);
    for (int I = 0; I < N; ++I) {
      Keys[I] = int((I * 2654435761u) >> 9) % (I % 5 == 0 ? 3 : 1024);
      Vals[I] = I % 17 - 8;
    }
    std::vector<int> Want(1024, 0);
    for (int I = 0; I < N; ++I)
      Want[Keys[I] & 1023] += Vals[I];
    int *dKeys, *dVals, *dSum, *dLocks, *dOut;
    unsigned *dCount;
    cudaMalloc(&dKeys, N * sizeof(int));
    cudaMalloc(&dVals, N * sizeof(int));
    cudaMalloc(&dSum, 1024 * sizeof(int));
    cudaMalloc(&dLocks, 1024 * sizeof(int));
    cudaMalloc(&dOut, 1024 * sizeof(int));
    cudaMalloc(&dCount, sizeof(unsigned));
    cudaMemcpy(dKeys, Keys.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dVals, Vals.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dLocks, 0, 1024 * sizeof(int));
    for (int Kernel = 0; Kernel < 2; ++Kernel)
      for (int Rep = 0; Rep < 3; ++Rep) { // the launcher probes, then chooses
        cudaMemset(dSum, 0, 1024 * sizeof(int));
        cudaMemset(dOut, 0, 1024 * sizeof(int));
        cudaMemset(dCount, 0, sizeof(unsigned));
        const unsigned Grid = (N + 255) / 256;
        if (Kernel == 0)
          totals<<<Grid, 256>>>(dKeys, dVals, N, dSum, dLocks, dSum, dCount,
                                dOut);
        else
          totals_release<<<Grid, 256>>>(dKeys, dVals, N, dSum, dLocks, dSum,
                                        dCount, dOut);
        std::vector<int> Sum(1024), Out(1024);
        cudaMemcpy(Sum.data(), dSum, 1024 * sizeof(int),
                   cudaMemcpyDeviceToHost);
        cudaMemcpy(Out.data(), dOut, 1024 * sizeof(int),
                   cudaMemcpyDeviceToHost);
        if (cudaDeviceSynchronize() != cudaSuccess) {
          std::printf("FAIL: CUDA error, kernel %d, n %d\n", Kernel, N);
          return 1;
        }
        for (int B = 0; B < 1024; ++B) {
          Hash = (Hash ^ unsigned(Sum[B])) * 1099511628211ull;
          Hash = (Hash ^ unsigned(Out[B])) * 1099511628211ull;
          if (Sum[B] != Want[B] || Out[B] != Want[B])
            ++Bad;
        }
      }
    cudaFree(dKeys);
    cudaFree(dVals);
    cudaFree(dSum);
    cudaFree(dLocks);
    cudaFree(dOut);
    cudaFree(dCount);
  }
  std::printf("%s %016llx\n", Bad ? "FAIL" : "ok", Hash);
  return Bad ? 1 : 0;
}
