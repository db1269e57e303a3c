// Stores to a thread's own array or to a __shared__ array do not alias a
// stream read through a pointer parameter, without __restrict__ or an
// annotation: the kernel's arguments were fixed before either object
// existed. ggml's mul_mat_vec keeps its sums in `float sumf[ncols_dst]`;
// without this the split declined such loops ("may alias the streamed
// array"). A store through another pointer parameter still may alias.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Xcompiler -Wall -Werror all-warnings -c %t.dd.cu -o %t.o
#include <cstdio>
#include <cstring>
#include <vector>

// CHECK: __global__ void __launch_bounds__(288) local_sums_split(
// CHECK: float sumf[4] = {0.0f, 0.0f, 0.0f, 0.0f};
// CHECK: sumf[j] += t * w[j];
__global__ void local_sums(const float *x, const float *w, float *dst, const int n) {
  const float *row = x + blockIdx.x * n;
  float sumf[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  // REMARK: object-stores.cu:[[@LINE+1]]:3: remark: --split=auto: split plan for loop: streams row[c] {{.*}}; rewritten: local_sums_split
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
    const float t = row[c];
#pragma unroll
    for (int j = 0; j < 4; ++j)
      sumf[j] += t * w[j];
  }
  for (int j = 0; j < 4; ++j)
    dst[(blockIdx.x * 4 + j) * blockDim.x + threadIdx.x] = sumf[j];
}

// CHECK: __global__ void __launch_bounds__(288) shared_sums_split(
// CHECK: part[j][threadIdx.x] += t * w[j];
// CHECK: dd::consumer_sync(dd_consumers);
__global__ void shared_sums(const float *x, const float *w, float *dst, const int n) {
  __shared__ float part[4][256];
  const float *row = x + blockIdx.x * n;
  for (int j = 0; j < 4; ++j)
    part[j][threadIdx.x] = 0;
  // REMARK: object-stores.cu:[[@LINE+1]]:3: remark: --split=auto: split plan for loop: streams row[c] {{.*}}; rewritten: shared_sums_split
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
    const float t = row[c];
    for (int j = 0; j < 4; ++j)
      part[j][threadIdx.x] += t * w[j];
  }
  __syncthreads();
  if (threadIdx.x < 4) {
    float s = 0;
    for (int i = 0; i < blockDim.x; ++i)
      s += part[threadIdx.x][i];
    dst[blockIdx.x * 4 + threadIdx.x] = s;
  }
}

// A store through a pointer parameter may still be the stream (the launch
// in scale_in_place passes one buffer as both).
__global__ void param_store(const float *x, float *y, const int n) {
  const float *row = x + blockIdx.x * n;
  // REMARK: object-stores.cu:[[@LINE+1]]:3: remark: --split=auto: not splitting this loop: the store 'y[blockIdx.x * n + c] = 2 * t' may alias the streamed array 'x'
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
    const float t = row[c];
    y[blockIdx.x * n + c] = 2 * t;
  }
}

void scale_in_place(float *a, unsigned rows, int n) { param_store<<<rows, 128>>>(a, a, n); }

// Sums of every row at 6 column counts and blocks of 64 to 256 (the split
// runs at most 256 threads a block), against the CPU's in the same order of
// float additions for the per-thread sums; the hash covers every output.
int main() {
  const int ColCounts[] = {1, 33, 256, 1000, 4097, 20000};
  const unsigned Blocks[] = {64, 128, 256};
  const unsigned Rows = 37;
  const float W[4] = {1.0f, -0.5f, 0.25f, 2.0f};
  unsigned long long H = 14695981039346656037ull;
  int Bad = 0;
  for (int Cols : ColCounts)
    for (unsigned B : Blocks) {
      const size_t N = size_t(Cols) * Rows;
      std::vector<float> X(N);
      for (size_t I = 0; I < N; ++I)
        X[I] = float((I * 2654435761u) % 1000) / 64.0f - 7.0f;
      float *dX, *dW, *dLocal, *dShared, *dY;
      cudaMalloc(&dX, N * sizeof(float));
      cudaMalloc(&dW, sizeof W);
      cudaMalloc(&dLocal, size_t(Rows) * 4 * B * sizeof(float));
      cudaMalloc(&dShared, Rows * 4 * sizeof(float));
      cudaMalloc(&dY, N * sizeof(float));
      cudaMemcpy(dX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice);
      cudaMemcpy(dW, W, sizeof W, cudaMemcpyHostToDevice);
      for (int Rep = 0; Rep < 3; ++Rep) { // the launchers probe, then choose
        local_sums<<<Rows, B>>>(dX, dW, dLocal, Cols);
        shared_sums<<<Rows, B>>>(dX, dW, dShared, Cols);
        param_store<<<Rows, B>>>(dX, dY, Cols);
      }
      std::vector<float> Local(size_t(Rows) * 4 * B), Shared(Rows * 4), Y(N);
      cudaMemcpy(Local.data(), dLocal, Local.size() * sizeof(float), cudaMemcpyDeviceToHost);
      cudaMemcpy(Shared.data(), dShared, Shared.size() * sizeof(float), cudaMemcpyDeviceToHost);
      cudaMemcpy(Y.data(), dY, Y.size() * sizeof(float), cudaMemcpyDeviceToHost);
      if (cudaDeviceSynchronize() != cudaSuccess) {
        std::printf("FAIL: CUDA error at cols %d block %u\n", Cols, B);
        return 1;
      }
      // Thread t of row r adds columns t, t + B, ... in order.
      for (unsigned R = 0; R < Rows; ++R)
        for (unsigned T = 0; T < B; ++T) {
          float S[4] = {0, 0, 0, 0};
          for (int C = T; C < Cols; C += B)
            for (int J = 0; J < 4; ++J)
              S[J] += X[size_t(R) * Cols + C] * W[J];
          for (int J = 0; J < 4; ++J)
            if (Local[(size_t(R) * 4 + J) * B + T] != S[J] && Bad++ < 10)
              std::printf("FAIL: cols %d block %u row %u thread %u sum %d\n", Cols, B, R, T, J);
        }
      for (size_t I = 0; I < N; ++I)
        if (Y[I] != 2 * X[I] && Bad++ < 10)
          std::printf("FAIL: cols %d block %u y[%zu]\n", Cols, B, I);
      for (const std::vector<float> *V : {&Local, &Shared, &Y})
        for (float F : *V) {
          unsigned U;
          std::memcpy(&U, &F, sizeof U);
          H = (H ^ U) * 1099511628211ull;
        }
      cudaFree(dX);
      cudaFree(dW);
      cudaFree(dLocal);
      cudaFree(dShared);
      cudaFree(dY);
    }
  std::printf("hash %llx\n%s\n", H, Bad ? "check FAILED" : "check ok");
  return Bad ? 1 : 0;
}
