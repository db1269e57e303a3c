// The producer warp copies a loop's streams from the kernel's entry on. A
// function that thread 0 calls before the loop (then a barrier), or that
// the loop calls, may write the streamed array through a global the
// kernel never names: the loop is not split. A callee with no body in the
// file, or called through a pointer (at any depth), may write anything; the
// toolkit's (cooperative groups) none of the program's globals. The program checks its sums against the CPU; split,
// the first kernel read the row before thread 0 had written it.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s --implicit-check-not=_split
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -c %t.dd.cu -o %t.o
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int MaxCells = 1 << 22;
__device__ float table[MaxCells];

// Slow on purpose: the row is ready long after the kernel's entry.
__device__ void fill_row(int row, int n) {
  for (int j = 0; j < n; ++j)
    table[row * n + j] = float((row * 7 + j) % 13);
}
__device__ void fill(int row, int n) { fill_row(row, n); }
__device__ void bump(int at) { table[at] += 1.0f; }
typedef void (*Hook)(int);
__device__ Hook hook = bump;
__device__ void step(int at) { hook(at); }

// CHECK: __global__ void fill_then_sum(
__global__ void fill_then_sum(float *__restrict__ out, int n) {
  if (threadIdx.x == 0)
    fill(blockIdx.x, n);
  __syncthreads();
  float s = 0;
  // REMARK: refuse-callee-writes.cu:[[@LINE+1]]:3: remark: --split=auto: loop not eligible: the streamed array 'table' may be written before the loop, so the producer warp could copy stale data
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    s += table[blockIdx.x * n + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// CHECK: __global__ void sum_and_bump(
__global__ void sum_and_bump(float *__restrict__ out, int n) {
  float s = 0;
  // REMARK: refuse-callee-writes.cu:[[@LINE+1]]:3: remark: --split=auto: loop not eligible: the streamed array 'table' may be written in the loop, so the producer warp could copy stale data
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    s += table[blockIdx.x * n + j];
    if (j + blockDim.x < n)
      bump(blockIdx.x * n + j + blockDim.x);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// CHECK: __global__ void sum_and_hook(
__global__ void sum_and_hook(float *__restrict__ out, int n) {
  float s = 0;
  // REMARK: refuse-callee-writes.cu:[[@LINE+1]]:3: remark: --split=auto: loop not eligible: the streamed array 'table' may be written in the loop, so the producer warp could copy stale data
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    s += table[blockIdx.x * n + j];
    if (j + blockDim.x < n)
      step(blockIdx.x * n + j + blockDim.x);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main() {
  const int Cols[] = {256, 4096, 16384};
  const unsigned Rows = 132;
  int Bad = 0;
  unsigned long long H = 14695981039346656037ull;
  float *dOut;
  cudaMalloc(&dOut, Rows * 256 * sizeof(float));
  for (int N : Cols) {
    // Each thread's sum against the CPU's; Bumped: kernel 2 added 1 to
    // every element past the first 256 of its row.
    auto Check = [&](bool Bumped) {
      std::vector<float> Out(Rows * 256);
      cudaMemcpy(Out.data(), dOut, Out.size() * sizeof(float),
                 cudaMemcpyDeviceToHost);
      for (unsigned R = 0; R < Rows; ++R)
        for (int T = 0; T < 256; ++T) {
          float Want = 0;
          for (int J = T; J < N; J += 256)
            Want += float((R * 7 + J) % 13) + (Bumped && J >= 256 ? 1.0f : 0.0f);
          const float Got = Out[R * 256 + T];
          Bad += Got != Want;
          unsigned Bits;
          std::memcpy(&Bits, &Got, 4);
          H = (H ^ Bits) * 1099511628211ull;
        }
    };
    // Kernel 1: each row filled by its thread 0, then summed.
    fill_then_sum<<<Rows, 256>>>(dOut, N);
    Check(false);
    // Kernel 2: each thread bumps the element it reads next.
    sum_and_bump<<<Rows, 256>>>(dOut, N);
    Check(true);
    // Kernel 3: the same bump, through a pointer in a callee.
    fill_then_sum<<<Rows, 256>>>(dOut, N);
    Check(false);
    sum_and_hook<<<Rows, 256>>>(dOut, N);
    Check(true);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::printf("FAIL: CUDA error\n");
      return 1;
    }
  }
  cudaFree(dOut);
  std::printf("%s %016llx\n", Bad ? "FAIL" : "ok", H);
  return Bad ? 1 : 0;
}
