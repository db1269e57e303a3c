// ggml's argmax shape (test/split/row-argmax.cu's kernel: a block per row,
// the block's own reduction after the loop) timed as written and as
// `decoupler --split=auto` rewrites it, on shapes where the split can run
// (at most 256 threads a block, rows of many iterations a thread).
//
//   argmax_bench COLS ROWS BLOCK
//
// Median of 51 launches after 5 warm-ups (CUDA events around each launch,
// which waits), and a hash of the results: the ways must print the same.
// bench/split/argmax.sh builds both and runs them side by side.
#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void row_argmax(const float *__restrict__ x, int *__restrict__ dst, const long long ncols) {
  const long long row = blockIdx.x;
  float maxval = -FLT_MAX;
  int argmax = -1;
  const float *rowx = x + row * ncols;
  for (int col = threadIdx.x; col < ncols; col += blockDim.x) {
    const float val = rowx[col];
    if (val > maxval) {
      maxval = val;
      argmax = col;
    }
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const float val = __shfl_xor_sync(0xFFFFFFFF, maxval, offset, 32);
    const int col = __shfl_xor_sync(0xFFFFFFFF, argmax, offset, 32);
    if (val > maxval) {
      maxval = val;
      argmax = col;
    }
  }
  const int n_warps = blockDim.x / 32;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (n_warps > 1) {
    __shared__ float shared_maxval[32];
    __shared__ int shared_argmax[32];
    if (lane == 0) {
      shared_maxval[warp] = maxval;
      shared_argmax[warp] = argmax;
    }
    __syncthreads();
    if (warp == 0) {
      if (lane < n_warps) {
        maxval = shared_maxval[lane];
        argmax = shared_argmax[lane];
      }
      for (int offset = 16; offset > 0; offset >>= 1) {
        const float val = __shfl_xor_sync(0xFFFFFFFF, maxval, offset, 32);
        const int col = __shfl_xor_sync(0xFFFFFFFF, argmax, offset, 32);
        if (val > maxval) {
          maxval = val;
          argmax = col;
        }
      }
    }
  }
  if (warp == 0 && lane == 0)
    dst[row] = argmax;
}


int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: argmax_bench COLS ROWS BLOCK\n");
    return 2;
  }
  const long long Cols = atoll(argv[1]);
  const unsigned Rows = unsigned(atoi(argv[2])), B = unsigned(atoi(argv[3]));
  const size_t N = size_t(Cols) * Rows;
  std::vector<float> X(N);
  for (size_t I = 0; I < N; ++I) X[I] = float((I * 2654435761u) % 100003) / 7.0f;
  float *dX; int *dOut;
  cudaMalloc(&dX, N * sizeof(float)); cudaMalloc(&dOut, Rows * sizeof(int));
  cudaMemcpy(dX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> T;
  for (int R = 0; R < 56; ++R) {
    cudaEventRecord(a);
    row_argmax<<<Rows, B>>>(dX, dOut, Cols);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (R >= 5) T.push_back(ms);
  }
  std::sort(T.begin(), T.end());
  std::vector<int> Out(Rows); cudaMemcpy(Out.data(), dOut, Rows * sizeof(int), cudaMemcpyDeviceToHost);
  unsigned long long H = 1469598103934665603ull; for (int O : Out) H = (H ^ unsigned(O)) * 1099511628211ull;
  printf("cols %lld rows %u block %u median_ms %.4f hash %llx err %s\n", Cols, Rows, B, T[T.size()/2], H, cudaGetErrorString(cudaGetLastError()));
  return 0;
}
