// A client that sends from a loop inside a loop of rounds must wait for its
// section when a later round uses what the section wrote, even where that use
// stands in the outer loop before the inner one in the text: the loop of
// rounds runs it after the section. Two shapes: each round first publishes
// the round before to other blocks (a fence, a counter, the last block copies
// the totals), and each round first reads what this thread's section wrote
// the round before. The program checks both against the CPU.
// RUN: %decoupler --no-line-directives --passes=delegate -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <cstdio>
#include <vector>

constexpr int Buckets = 1024;

// CHECK: __global__ void rounds_client(
// CHECK: dd_replies.call(
__global__ void rounds(const int *keys, const int *vals, int n, int nrounds,
                       int *sum, int *locks, const int *view, unsigned *count,
                       int *out) {
  __shared__ bool last;
  for (int r = 0; r < nrounds; ++r) {
    if (r > 0) {
      // Publish the round before: its sums are final once every block
      // has counted itself in.
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0)
        last = atomicAdd(&count[r - 1], 1u) == gridDim.x - 1;
      __syncthreads();
      if (last) {
        __threadfence();
        for (int b = threadIdx.x; b < Buckets; b += blockDim.x)
          out[(r - 1) * Buckets + b] = view[(r - 1) * Buckets + b];
      }
    }
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
      int b = (keys[i] + r) & (Buckets - 1);
      bool done = false;
      // REMARK: rewrite-wait-outer-loop.cu:[[@LINE+2]]:7: remark: delegated the critical section (one lock) of 'rounds' to server blocks: {{.*}}; each client waits for the server's reply, since after the critical section the kernel lets other blocks see its writes at __threadfence() (line 27)
#pragma dd delegate
      do {
        if (atomicCAS(&locks[b], 0, 1) == 0) {
          __threadfence();
          sum[r * Buckets + b] += vals[i];
          __threadfence();
          atomicExch(&locks[b], 0);
          done = true;
        }
      } while (!done);
    }
  }
}

// CHECK: __global__ void running_client(
// CHECK: dd_replies.call(
__global__ void running(const int *vals, int n, int nrounds, int *sum,
                        int *locks, int *out) {
  const int First = blockIdx.x * blockDim.x + threadIdx.x;
  const int Stride = blockDim.x * gridDim.x;
  for (int r = 0; r < nrounds; ++r) {
    // What this thread's sections of the round before left.
    if (r > 0)
      for (int i = First; i < n; i += Stride)
        out[(r - 1) * n + i] = sum[i];
    for (int i = First; i < n; i += Stride) {
      bool done = false;
      // REMARK: rewrite-wait-outer-loop.cu:[[@LINE+2]]:7: remark: delegated the critical section (one lock) of 'running' to server blocks: {{.*}}; each client waits for the server's reply, since the kernel uses 'sum' (line 67), which the critical section writes, after it
#pragma dd delegate
      do {
        if (atomicCAS(&locks[i & (Buckets - 1)], 0, 1) == 0) {
          __threadfence();
          sum[i] += vals[i] * (r + 1);
          __threadfence();
          atomicExch(&locks[i & (Buckets - 1)], 0);
          done = true;
        }
      } while (!done);
    }
  }
}

int main() {
  const int Sizes[] = {1, 1000, 65536, 1 << 19};
  const int Rounds = 4;
  int Bad = 0;
  unsigned long long Hash = 14695981039346656037ull;
  auto mix = [&](int V) { Hash = (Hash ^ unsigned(V)) * 1099511628211ull; };
  for (int N : Sizes) {
    std::vector<int> Keys(N), Vals(N);
    for (int I = 0; I < N; ++I) {
      Keys[I] = int((I * 2654435761u) >> 9) % (I % 5 == 0 ? 3 : Buckets);
      Vals[I] = I % 17 - 8;
    }
    int *dKeys, *dVals, *dSum, *dLocks, *dOut;
    unsigned *dCount;
    const size_t Cells = size_t(Rounds) * (N > Buckets ? N : Buckets);
    cudaMalloc(&dKeys, N * sizeof(int));
    cudaMalloc(&dVals, N * sizeof(int));
    cudaMalloc(&dSum, Cells * sizeof(int));
    cudaMalloc(&dLocks, Buckets * sizeof(int));
    cudaMalloc(&dOut, Cells * sizeof(int));
    cudaMalloc(&dCount, Rounds * sizeof(unsigned));
    cudaMemcpy(dKeys, Keys.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dVals, Vals.data(), N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(dLocks, 0, Buckets * sizeof(int));
    // A grid of fewer threads than elements, so that the inner loops turn.
    const unsigned Grid = (N + 1023) / 1024;
    for (int Kernel = 0; Kernel < 2; ++Kernel)
      for (int Rep = 0; Rep < 3; ++Rep) { // the launcher probes, then chooses
        cudaMemset(dSum, 0, Cells * sizeof(int));
        cudaMemset(dOut, 0, Cells * sizeof(int));
        cudaMemset(dCount, 0, Rounds * sizeof(unsigned));
        std::vector<int> Want, Got;
        if (Kernel == 0) {
          rounds<<<Grid, 256>>>(dKeys, dVals, N, Rounds, dSum, dLocks, dSum,
                                dCount, dOut);
          // Rounds 0..Rounds-2 are published to 'out'.
          Want.assign(size_t(Rounds - 1) * Buckets, 0);
          for (int R = 0; R + 1 < Rounds; ++R)
            for (int I = 0; I < N; ++I)
              Want[R * Buckets + ((Keys[I] + R) & (Buckets - 1))] += Vals[I];
        } else {
          running<<<Grid, 256>>>(dVals, N, Rounds, dSum, dLocks, dOut);
          Want.assign(size_t(Rounds - 1) * N, 0);
          for (int R = 0; R + 1 < Rounds; ++R)
            for (int I = 0; I < N; ++I)
              Want[size_t(R) * N + I] =
                  (R ? Want[size_t(R - 1) * N + I] : 0) + Vals[I] * (R + 1);
        }
        Got.resize(Want.size());
        cudaMemcpy(Got.data(), dOut, Got.size() * sizeof(int),
                   cudaMemcpyDeviceToHost);
        if (cudaDeviceSynchronize() != cudaSuccess) {
          std::printf("FAIL: CUDA error, kernel %d, n %d\n", Kernel, N);
          return 1;
        }
        for (size_t C = 0; C < Want.size(); ++C) {
          mix(Got[C]);
          Bad += Got[C] != Want[C];
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
