// A row reduction whose loop is followed by the block's own reduction, the
// shape of ggml's argmax (a block per row, a 32-bit column against a 64-bit
// count, a row pointer computed before the loop, warp shuffles, then shared
// arrays declared inside `if (n_warps > 1)` around a __syncthreads()). The
// split keeps everything after the loop in the consumers: blockDim.x there
// is the consumers' count and __syncthreads() their named barrier, so each
// consumer gets the same columns and reduces in the same order as the
// thread it replaces, and ties go to the same column.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -Xcompiler -Wall -Werror all-warnings -c %t.dd.cu -o %t.o
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <vector>

// CHECK: __global__ void __launch_bounds__(288) row_argmax_split(const float *__restrict__ x, int *__restrict__ dst, const long long ncols) {
// CHECK: if (threadIdx.x >= dd_consumers) {
// CHECK: const float *rowx = x + row * ncols;
// CHECK: dd::copy_tile_async(dd_stages[dd_c.slot].s0, &(rowx[col]), 0, dd_count, dd_ring.full(dd_c));
// CHECK: return;
// CHECK: // decoupler: 'rowx' is the producer's (only streamed addresses read it)
// CHECK-NOT: rowx
// CHECK: const float val = dd_s0[dd_u];
// CHECK: const int n_warps = dd_consumers / 32;
// CHECK: dd::consumer_sync(dd_consumers);
// CHECK-NOT: __syncthreads
// CHECK: static void row_argmax_launch(
__global__ void row_argmax(const float *__restrict__ x, int *__restrict__ dst, const long long ncols) {
  const long long row = blockIdx.x;
  float maxval = -FLT_MAX;
  int argmax = -1;
  const float *rowx = x + row * ncols;
  // REMARK: row-argmax.cu:[[@LINE+2]]:3: remark: --split=auto: split plan for loop: streams rowx[col] {{.*}}; rewritten: row_argmax_split
  // REMARK: remark: --split=auto: loop not eligible: the loop's step is not an increment of its induction variable 'offset'
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

// A local that only another producer-only local reads ('off', read by
// 'rowx's initializer) is the producer's too: the consumers' copy keeps
// neither, so nvcc has nothing to warn of as set but never used.
// CHECK: __global__ void __launch_bounds__(288) row_positives_split(
// CHECK: const float *rowx = x + off;
// CHECK: // decoupler: the consumer warps: the kernel as written.
// CHECK-NEXT: // decoupler: 'off' is the producer's (only streamed addresses read it)
// CHECK-NEXT: // decoupler: 'rowx' is the producer's (only streamed addresses read it)
// CHECK-NEXT: int n = 0;
// CHECK: row_argmax_launch(Grid, Block, 0, 0, dX, dOut, Cols);
// CHECK: row_positives_launch(Grid, Block, 0, 0, dX, dOut, Cols);
__global__ void row_positives(const float *__restrict__ x, int *__restrict__ count, const long long ncols) {
  const long long off = blockIdx.x * ncols;
  const float *rowx = x + off;
  int n = 0;
  // REMARK: row-argmax.cu:[[@LINE+1]]:3: remark: --split=auto: split plan for loop: streams rowx[col] {{.*}}; rewritten: row_positives_split
  for (int col = threadIdx.x; col < ncols; col += blockDim.x)
    n += rowx[col] > 0.0f;
  atomicAdd(&count[blockIdx.x], n);
}

// Every row's argmax and count of positives at column counts from 1 to 40000 (few to thousands of
// iterations per thread) and blocks of 32 to 1024 threads (the split runs
// blocks of at most 256; larger ones run as written). Values repeat (97 of
// them), so ties decide which column wins. Prints the hash of every result
// and checks each against the CPU: the column must hold the row's maximum.
int main() {
  const long long ColCounts[] = {1, 31, 32, 33, 255, 256, 1000, 4097, 40000};
  const unsigned RowCounts[] = {1, 7, 300};
  const unsigned Blocks[] = {32, 64, 128, 256, 512, 1024};
  unsigned long long H = 14695981039346656037ull;
  int Bad = 0;
  for (long long Cols : ColCounts)
    for (unsigned Rows : RowCounts)
      for (unsigned B : Blocks) {
        const size_t N = size_t(Cols) * Rows;
        std::vector<float> X(N);
        for (size_t I = 0; I < N; ++I)
          X[I] = float((I * 2654435761u + Cols) % 97) - 48.0f;
        float *dX;
        int *dOut;
        cudaMalloc(&dX, N * sizeof(float));
        cudaMalloc(&dOut, Rows * sizeof(int));
        cudaMemcpy(dX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemset(dOut, 0xff, Rows * sizeof(int));
        const dim3 Grid(Rows), Block(B);
        for (int Rep = 0; Rep < 3; ++Rep) // the launcher probes, then chooses
          row_argmax<<<Grid, Block>>>(dX, dOut, Cols);
        std::vector<int> Out(Rows), Pos(Rows);
        cudaMemcpy(Out.data(), dOut, Rows * sizeof(int), cudaMemcpyDeviceToHost);
        cudaMemset(dOut, 0, Rows * sizeof(int));
        row_positives<<<Grid, Block>>>(dX, dOut, Cols);
        cudaMemcpy(Pos.data(), dOut, Rows * sizeof(int), cudaMemcpyDeviceToHost);
        if (cudaDeviceSynchronize() != cudaSuccess) {
          std::printf("FAIL: CUDA error at cols %lld rows %u block %u\n", Cols, Rows, B);
          return 1;
        }
        for (unsigned R = 0; R < Rows; ++R) {
          float Max = -FLT_MAX;
          for (long long C = 0; C < Cols; ++C)
            Max = X[R * Cols + C] > Max ? X[R * Cols + C] : Max;
          int Positives = 0;
          for (long long C = 0; C < Cols; ++C)
            Positives += X[R * Cols + C] > 0.0f;
          if (Pos[R] != Positives && Bad++ < 10)
            std::printf("FAIL: cols %lld rows %u block %u row %u: %d positives, not %d\n", Cols, Rows, B, R,
                        Pos[R], Positives);
          const int A = Out[R];
          if (A < 0 || A >= Cols || X[R * Cols + A] != Max) {
            if (Bad++ < 10)
              std::printf("FAIL: cols %lld rows %u block %u row %u: column %d\n", Cols, Rows, B, R, A);
          }
          H = (H ^ unsigned(A)) * 1099511628211ull;
        }
        cudaFree(dX);
        cudaFree(dOut);
      }
  std::printf("hash %llx\n%s\n", H, Bad ? "check FAILED" : "check ok");
  return Bad ? 1 : 0;
}
