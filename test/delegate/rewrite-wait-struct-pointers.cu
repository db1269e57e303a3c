// A struct that holds pointers reaches what they point to: reading through
// one after the critical section (a kernel's parameter struct, a local
// view, a global one read by a callee) may read what the section wrote, so
// the client waits for the server's reply. Each thread owns its bucket, so
// every result is known; the program checks them against the CPU.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <cstdio>
#include <vector>

struct Params {
  int *sums;
  const int *vals;
  int *out;
  int n;
};
struct View {
  int *p;
};
__device__ View global_view;

__device__ int read_view(int b) { return global_view.p[b]; }

// CHECK: __global__ void by_param_client(
// CHECK: dd_replies.call(
__global__ void by_param(Params P, int *locks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < P.n) {
    bool done = false;
    // REMARK: rewrite-wait-struct-pointers.cu:[[@LINE+2]]:5: remark: delegated the critical section (one lock) of 'by_param' to server blocks: {{.*}}; each client waits for the server's reply, since the kernel uses 'P' (line [[@LINE+11]]), whose pointers may reach memory the critical section writes, after it
#pragma dd delegate
    do {
      if (atomicCAS(&locks[i & 1023], 0, 1) == 0) {
        __threadfence();
        P.sums[i] += P.vals[i];
        __threadfence();
        atomicExch(&locks[i & 1023], 0);
        done = true;
      }
    } while (!done);
    P.out[i] = P.sums[i];
  }
}

// CHECK: __global__ void by_local_client(
// CHECK: dd_replies.call(
__global__ void by_local(int *sums, const int *vals, int n, int *locks,
                         int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    View v{sums};
    bool done = false;
    // REMARK: rewrite-wait-struct-pointers.cu:[[@LINE+2]]:5: remark: delegated {{.*}}; each client waits for the server's reply, since the kernel uses 'v' (line [[@LINE+11]]), whose pointers may reach memory
#pragma dd delegate
    do {
      if (atomicCAS(&locks[i & 1023], 0, 1) == 0) {
        __threadfence();
        sums[i] += vals[i];
        __threadfence();
        atomicExch(&locks[i & 1023], 0);
        done = true;
      }
    } while (!done);
    out[i] = v.p[i];
  }
}

// CHECK: __global__ void by_global_client(
// CHECK: dd_replies.call(
__global__ void by_global(int *sums, const int *vals, int n, int *locks,
                          int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool done = false;
    // REMARK: rewrite-wait-struct-pointers.cu:[[@LINE+2]]:5: remark: delegated {{.*}}; each client waits for the server's reply, since the kernel calls 'read_view' (line [[@LINE+11]]), which may read memory the critical section writes, after it
#pragma dd delegate
    do {
      if (atomicCAS(&locks[i & 1023], 0, 1) == 0) {
        __threadfence();
        sums[i] += vals[i];
        __threadfence();
        atomicExch(&locks[i & 1023], 0);
        done = true;
      }
    } while (!done);
    out[i] = read_view(i);
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
    int *dSums, *dVals, *dLocks, *dOut;
    cudaMalloc(&dSums, N * sizeof(int));
    cudaMalloc(&dVals, N * sizeof(int));
    cudaMalloc(&dLocks, 1024 * sizeof(int));
    cudaMalloc(&dOut, N * sizeof(int));
    cudaMemcpy(dVals, Vals.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dSums, 0, N * sizeof(int));
    cudaMemset(dLocks, 0, 1024 * sizeof(int));
    const View GlobalView{dSums};
    cudaMemcpyToSymbol(global_view, &GlobalView, sizeof GlobalView);
    const Params P{dSums, dVals, dOut, N};
    std::vector<int> Sums(N, 0); // the CPU's
    for (int Kernel = 0; Kernel < 3; ++Kernel)
      for (int Rep = 0; Rep < 3; ++Rep) { // the launcher probes, then chooses
        cudaMemset(dOut, 0, N * sizeof(int));
        const unsigned Grid = (N + 255) / 256;
        if (Kernel == 0)
          by_param<<<Grid, 256>>>(P, dLocks);
        else if (Kernel == 1)
          by_local<<<Grid, 256>>>(dSums, dVals, N, dLocks, dOut);
        else
          by_global<<<Grid, 256>>>(dSums, dVals, N, dLocks, dOut);
        std::vector<int> Out(N);
        cudaMemcpy(Out.data(), dOut, N * sizeof(int), cudaMemcpyDeviceToHost);
        if (cudaDeviceSynchronize() != cudaSuccess) {
          std::printf("FAIL: CUDA error, kernel %d, n %d\n", Kernel, N);
          return 1;
        }
        for (int I = 0; I < N; ++I) {
          Sums[I] += Vals[I];
          Hash = (Hash ^ unsigned(Out[I])) * 1099511628211ull;
          Bad += Out[I] != Sums[I];
        }
      }
    cudaFree(dSums);
    cudaFree(dVals);
    cudaFree(dLocks);
    cudaFree(dOut);
  }
  std::printf("%s %016llx\n", Bad ? "FAIL" : "ok", Hash);
  return Bad ? 1 : 0;
}
