// A function the kernel calls after the critical section may read what the
// section wrote through a global, which the kernel itself never names: the
// client waits for the server's reply then too. Directly, two calls deep,
// and through a function pointer (which may read anything). Each thread
// owns its bucket, so every result is known; the program checks them
// against the CPU.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <cstdio>
#include <vector>

constexpr int Buckets = 1 << 16;
__device__ int total[Buckets];

__device__ int read_total(int b) { return total[b]; }
__device__ int twice_total(int b) { return 2 * read_total(b); }
typedef int (*Reader)(int);
__device__ Reader reader = read_total;

// CHECK: __global__ void direct_client(
// CHECK: dd_replies.call(
__global__ void direct(const int *vals, int n, int *locks, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool done = false;
    // REMARK: rewrite-wait-callee-read.cu:[[@LINE+2]]:5: remark: delegated the critical section (one lock) of 'direct' to server blocks: {{.*}}; each client waits for the server's reply, since the kernel calls 'read_total' (line [[@LINE+11]]), which may read memory the critical section writes, after it
#pragma dd delegate
    do {
      if (atomicCAS(&locks[i & 1023], 0, 1) == 0) {
        __threadfence();
        total[i] += vals[i];
        __threadfence();
        atomicExch(&locks[i & 1023], 0);
        done = true;
      }
    } while (!done);
    out[i] = read_total(i);
  }
}

// CHECK: __global__ void nested_client(
// CHECK: dd_replies.call(
__global__ void nested(const int *vals, int n, int *locks, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool done = false;
    // REMARK: rewrite-wait-callee-read.cu:[[@LINE+2]]:5: remark: delegated {{.*}}; each client waits for the server's reply, since the kernel calls 'twice_total'
#pragma dd delegate
    do {
      if (atomicCAS(&locks[i & 1023], 0, 1) == 0) {
        __threadfence();
        total[i] += vals[i];
        __threadfence();
        atomicExch(&locks[i & 1023], 0);
        done = true;
      }
    } while (!done);
    out[i] = twice_total(i);
  }
}

// CHECK: __global__ void indirect_client(
// CHECK: dd_replies.call(
__global__ void indirect(const int *vals, int n, int *locks, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool done = false;
    // REMARK: rewrite-wait-callee-read.cu:[[@LINE+2]]:5: remark: delegated {{.*}}; each client waits for the server's reply, since the kernel calls a function through a pointer
#pragma dd delegate
    do {
      if (atomicCAS(&locks[i & 1023], 0, 1) == 0) {
        __threadfence();
        total[i] += vals[i];
        __threadfence();
        atomicExch(&locks[i & 1023], 0);
        done = true;
      }
    } while (!done);
    out[i] = reader(i);
  }
}

int main() {
  const int Sizes[] = {1, 1000, 65536};
  int Bad = 0;
  unsigned long long Hash = 14695981039346656037ull;
  for (int N : Sizes) {
    std::vector<int> Vals(N);
    for (int I = 0; I < N; ++I)
      Vals[I] = I % 17 - 8;
    int *dVals, *dLocks, *dOut;
    cudaMalloc(&dVals, N * sizeof(int));
    cudaMalloc(&dLocks, 1024 * sizeof(int));
    cudaMalloc(&dOut, N * sizeof(int));
    cudaMemcpy(dVals, Vals.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dLocks, 0, 1024 * sizeof(int));
    for (int Kernel = 0; Kernel < 3; ++Kernel)
      for (int Rep = 0; Rep < 3; ++Rep) { // the launcher probes, then chooses
        // Each launch adds to what the ones before left.
        std::vector<int> Before(N);
        cudaMemcpyFromSymbol(Before.data(), total, N * sizeof(int));
        cudaMemset(dOut, 0, N * sizeof(int));
        const unsigned Grid = (N + 255) / 256;
        if (Kernel == 0)
          direct<<<Grid, 256>>>(dVals, N, dLocks, dOut);
        else if (Kernel == 1)
          nested<<<Grid, 256>>>(dVals, N, dLocks, dOut);
        else
          indirect<<<Grid, 256>>>(dVals, N, dLocks, dOut);
        std::vector<int> Out(N);
        cudaMemcpy(Out.data(), dOut, N * sizeof(int), cudaMemcpyDeviceToHost);
        if (cudaDeviceSynchronize() != cudaSuccess) {
          std::printf("FAIL: CUDA error, kernel %d, n %d\n", Kernel, N);
          return 1;
        }
        for (int I = 0; I < N; ++I) {
          const int Want = (Kernel == 1 ? 2 : 1) * (Before[I] + Vals[I]);
          Hash = (Hash ^ unsigned(Out[I])) * 1099511628211ull;
          Bad += Out[I] != Want;
        }
      }
    cudaFree(dVals);
    cudaFree(dLocks);
    cudaFree(dOut);
  }
  std::printf("%s %016llx\n", Bad ? "FAIL" : "ok", Hash);
  return Bad ? 1 : 0;
}
