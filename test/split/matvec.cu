// Dense y = A·x, one row per block (bench/split/matvec.cuh, original). The
// stream is A's row; x has no blockIdx term and stays with the consumers
// (L1). The step blockDim.x is not a compile-time constant, so nvcc keeps one
// load per warp in flight, and A advances by one tile per iteration, so U=4
// iterations make one 4 KiB copy. split-study.md section 6: accepted (the
// 8192² case, 1.64x measured); with 512 columns fixed at compile time each
// block makes one stage: declined as short blocks. The split itself is not
// generated: block_sum, a function the kernel calls, reads blockDim.x and
// synchronizes the block (rewrite-split.cu has the reduction in the kernel).
// RUN: %decoupler --passes=split -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.dd.cu
// RUN: %decoupler --analyze --report=json %s | FileCheck %s --check-prefix=JSON

#include <dd/annotate.h>

__device__ float block_sum(float v, float *partial) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void matvec(const float *A, const float *x, float *y, int n) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: matvec.cu:[[@LINE+2]]:3: warning: loop not decoupled: split plan for loop: streams A[(long long)row * n + j] (one copy per stage) (4 KiB stages x depth 4, U=4), 16704 B shared memory per block; predicted 2.4x; profitable only for blocks of >= 32 iterations (to be checked at launch); not rewritten: 'block_sum' uses blockDim.x (the split block has one more warp, which leaves after the loop); only the kernel's own code is rewritten
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum = __fmaf_rn(A[(long long)row * n + j], x[j], sum);
  sum = block_sum(sum, partial);
  if (threadIdx.x == 0)
    y[row] = sum;
}

constexpr int Columns = 512;

__global__ void matvec512(const float *A, const float *x, float *y) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  float sum = 0.0f;
  // CHECK: matvec.cu:[[@LINE+2]]:3: warning: loop not decoupled: short blocks: 2 iterations per block make 1 stage, fewer than 2 x depth 4 [-Wdecoupler-declined]
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < Columns; j += blockDim.x)
    sum = __fmaf_rn(A[row * Columns + j], x[j], sum);
  sum = block_sum(sum, partial);
  if (threadIdx.x == 0)
    y[row] = sum;
}

void launch(const float *A, const float *x, float *y, int rows, int n) {
  matvec<<<rows, 256>>>(A, x, y, n);
  matvec512<<<rows, 256>>>(A, x, y);
}

// JSON: "decouple": [
// JSON-NEXT: {"line": 34, "column": 3, "function": "matvec", "status": "accepted", "streams": [{"load": "A[(long long)row * n + j]", "line": 35, "column": 21, "note": "one copy per stage"}], "consumers": [{"load": "x[j]", "line": 35, "column": 48, "why": "no blockIdx term: every block reads it (L1/L2 reuse)"}], "block_threads": 256, "block_known": true, "iterations_per_stage": 4, "depth": 4, "stage_bytes": 4096, "shared_bytes": 16704, "mlp": 1, "in_flight_bytes": 8192, "predicted_gain": 2.44, "prefer_restrict_hoist": false, "min_trip_count": 32}
// JSON-NEXT: {"line": 49, "column": 3, "function": "matvec512", "status": "declined", "reason": "short blocks: 2 iterations per block make 1 stage, fewer than 2 x depth 4", {{.*}} "trip_count": 2}
