// The split rewrite (docs/split-pass.md) of matvec's shape: an accepted
// plan without rule 5, the loop 'for (j = threadIdx.x; j < n; j +=
// blockDim.x)' streaming A's row as one contiguous copy per stage, then a
// block reduction. The kernel stays as written (without its annotation);
// matvec_split beside it has one producer warp copying U iterations per
// stage into the ring and the consumers running the body as written
// (blockDim.x -> dd_consumers, __syncthreads() -> dd::consumer_sync), the
// loop over block-uniform stages with the lanes predicated; matvec_launch
// replaces every launch (<dd/split_launch.h>). Last, the tile shape: a
// loop whose control is the same in every thread, one tile of the block
// per iteration (fig33's rows with a step only known at run time).
// RUN: %decoupler --no-line-directives --passes=split -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --implicit-check-not=DD_PRAGMA --implicit-check-not='pragma dd'
// REQUIRES: nvcc
// RUN: %nvcc -Xcompiler -Wall -Werror all-warnings -c %t.cu -o %t.o

// CHECK: #include <dd/split_launch.h>
// CHECK-NEXT: #include <dd/annotate.h>
#include <dd/annotate.h>

// The kernel as written, the annotation gone.
// CHECK: __global__ void matvec(const float *A, const float *x, float *y, int n) {
// CHECK: float sum = 0.0f;
// CHECK-NEXT: for (int j = threadIdx.x; j < n; j += blockDim.x)
// CHECK-NEXT:   sum = __fmaf_rn(A[(long long)row * n + j], x[j], sum);
// CHECK: __syncthreads();
// CHECK: sum = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
__global__ void matvec(const float *A, const float *x, float *y, int n) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  float sum = 0.0f;
  // REMARK: rewrite-split.cu:[[@LINE+2]]:3: remark: split plan for loop: streams A[(long long)row * n + j] (one copy per stage) (4 KiB stages x depth 4, U=4), 16704 B shared memory per block; predicted 2.4x; profitable only for blocks of >= 32 iterations (to be checked at launch); rewritten: matvec_split (one producer warp, 4 stages of 4 iterations) and matvec_launch for 2 launches [-Rdecoupler]
  DD_PRAGMA(decouple)
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum = __fmaf_rn(A[(long long)row * n + j], x[j], sum);
  for (int o = 16; o > 0; o /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (threadIdx.x == 0)
      y[row] = sum;
  }
}

// The split: the ring (a tile holds U x the 256 threads of the launches).
// CHECK: // decoupler: the split of 'matvec' (docs/split-pass.md): the loop at line [[#LOOP:]] streams
// CHECK: __global__ void __launch_bounds__(288) matvec_split(const float *A, const float *x, float *y, int n) {
// CHECK: dd::TileSlot<float, 1024> s0; // A[(long long)row * n + j]
// CHECK: __shared__ dd::StageRing<4>::Storage dd_ring_storage;
// CHECK-NEXT: __shared__ dd_stage dd_stages[4];
// CHECK-NEXT: dd::StageRing<4> dd_ring(dd_ring_storage);
// CHECK: const unsigned dd_consumers = blockDim.x - 32;
// CHECK-NEXT: dd_ring.init(dd_consumers / 32);
// CHECK-NEXT: if (threadIdx.x >= dd_consumers) {
// The producer: the slice (row) and thread 0's loop control, one copy per stage.
// CHECK: const int row = blockIdx.x;
// CHECK-NEXT: dd::StageCursor<4> dd_c;
// CHECK-NEXT: for (int dd_j0 = 0; dd_j0 < n; dd_j0 += 4 * (int)(dd_consumers), dd_c.advance()) {
// CHECK-NEXT: dd_ring.acquire(dd_c);
// CHECK-NEXT: const long long dd_left = (long long)(n) - (long long)dd_j0;
// CHECK-NEXT: const unsigned dd_count =
// CHECK-NEXT: dd_left < 4LL * dd_consumers ? (unsigned)dd_left : 4u * dd_consumers;
// CHECK-NEXT: const int j = dd_j0;
// CHECK-NEXT: dd::copy_tile_async(dd_stages[dd_c.slot].s0, &(A[(long long)row * n + j]), 0, dd_count, dd_ring.full(dd_c));
// CHECK-NEXT: dd_ring.commit(dd_c);
// CHECK-NEXT: }
// CHECK-NEXT: return;
// CHECK-NEXT: }
// The consumers: the body as written, the loop over block-uniform stages.
// CHECK: __shared__ float partial[32];
// CHECK-NEXT: const int row = blockIdx.x;
// CHECK-NEXT: float sum = 0.0f;
// CHECK: dd::StageCursor<4> dd_c;
// CHECK-NEXT: for (int dd_j0 = 0; dd_j0 < n; dd_j0 += 4 * (int)(dd_consumers), dd_c.advance()) {
// CHECK-NEXT: dd_ring.wait(dd_c);
// CHECK-NEXT: float dd_s0[4];
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int dd_u = 0; dd_u < 4; ++dd_u)
// CHECK-NEXT: if (dd_j0 + (int)(dd_u) * (int)(dd_consumers) + (int)(threadIdx.x) < n) {
// CHECK-NEXT: dd_s0[dd_u] = dd_stages[dd_c.slot].s0[dd_u * dd_consumers + threadIdx.x];
// CHECK-NEXT: }
// CHECK-NEXT: dd_ring.release(dd_c);
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int dd_u = 0; dd_u < 4; ++dd_u) {
// CHECK-NEXT: int j = dd_j0 + (int)(dd_u) * (int)(dd_consumers) + (int)(threadIdx.x);
// CHECK-NEXT: if (j < n)
// CHECK-NEXT: sum = __fmaf_rn(dd_s0[dd_u], x[j], sum);
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: dd::consumer_sync(dd_consumers);
// CHECK: sum = threadIdx.x < dd_consumers / 32 ? partial[threadIdx.x] : 0.0f;
// The launcher: trip count n / block for the minimum of 32 iterations.
// CHECK: static void matvec_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, const float *A, const float *x, float *y, int n) {
// CHECK-NEXT: static dd::SplitLaunchState dd_state;
// CHECK: const long long dd_span = (long long)(n) - (long long)(0);
// CHECK: dd_state, dd::SplitKernelInfo{"matvec", 256, 32}, (const void *)matvec_split,
// CHECK-NEXT: (const void *)matvec, dd_grid, dd_block, dd_shmem, dd_stream, dd_trips,
// CHECK: matvec_split<<<dd_g, dd_b, dd_s, dd_st>>>(A, x, y, n);
// CHECK: matvec<<<dd_g, dd_b, dd_s, dd_st>>>(A, x, y, n);

// CHECK: void launch(
// CHECK-NEXT: matvec_launch(rows, 256, 0, 0, A, x, y, n);
// CHECK-NEXT: matvec_launch(rows, 256, 0, s, A, x, y, n);
void launch(const float *A, const float *x, float *y, int rows, int n, cudaStream_t s) {
  matvec<<<rows, 256>>>(A, x, y, n);
  matvec<<<rows, 256, 0, s>>>(A, x, y, n);
}

// Doubles, a start offset, a local only the stream reads, a compound body
// with continue, dynamic shared memory and a launch before the definition.
// CHECK: __global__ void rowsum(const double *A, double *y, int n, int off);
// CHECK-NEXT: // decoupler: rowsum's launches go through this (defined below).
// CHECK-NEXT: static void rowsum_launch(dim3, dim3, size_t, cudaStream_t, const double *, double *, int, int);
__global__ void rowsum(const double *A, double *y, int n, int off);

// CHECK: rowsum_launch(rows, 128, 0, 0, A, y, n, off);
void launch_first(const double *A, double *y, int rows, int n, int off) {
  rowsum<<<rows, 128>>>(A, y, n, off);
}

__global__ void rowsum(const double *A, double *y, int n, int off) {
  extern __shared__ double partial[];
  const long long base = (long long)blockIdx.x * n;
  double sum = 0.0;
  // REMARK: rewrite-split.cu:[[@LINE+2]]:3: remark: {{.*}}rewritten: rowsum_split (one producer warp, 2 stages of 4 iterations) and rowsum_launch for 2 launches [-Rdecoupler]
#pragma dd decouple depth(2)
  for (int j = off + threadIdx.x; j < n; j += blockDim.x) {
    const double v = A[base + j];
    if (v < 0)
      continue;
    sum += v;
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    y[blockIdx.x] = partial[0];
}
// CHECK: __global__ void __launch_bounds__(160) rowsum_split(const double *A, double *y, int n, int off) {
// CHECK: dd::TileSlot<double, 512> s0; // A[base + j]
// CHECK: const long long base = (long long)blockIdx.x * n;
// CHECK-NEXT: dd::StageCursor<2> dd_c;
// CHECK-NEXT: for (int dd_j0 = off; dd_j0 < n; dd_j0 += 4 * (int)(dd_consumers), dd_c.advance()) {
// CHECK: dd::copy_tile_async(dd_stages[dd_c.slot].s0, &(A[base + j]), 0, dd_count, dd_ring.full(dd_c));
// CHECK: extern __shared__ double partial[];
// CHECK: // decoupler: 'base' is the producer's (only streamed addresses read it)
// CHECK: if (j < n) {
// CHECK-NEXT: const double v = dd_s0[dd_u];
// CHECK-NEXT: if (v < 0)
// CHECK-NEXT: continue;
// CHECK-NEXT: sum += v;
// CHECK-NEXT: }
// CHECK: for (unsigned s = dd_consumers / 2; s > 0; s /= 2) {
// CHECK: dd::consumer_sync(dd_consumers);
// CHECK: const long long dd_span = (long long)(n) - (long long)(off);
// CHECK: dd::SplitKernelInfo{"rowsum", 128, 16}

// CHECK: rowsum_launch(rows, 128, 128 * sizeof(double), s, A, y, n, 0);
void launch(const double *A, double *y, int rows, int n, cudaStream_t s) {
  rowsum<<<rows, 128, 128 * sizeof(double), s>>>(A, y, n, 0);
}

// Tiles: the producer recomputes thread 0's address (tid with threadIdx.x
// 0 and blockDim.x the consumer count) and copies U tiles of dd_consumers
// elements per stage; thread t reads element t of tile u.
// CHECK: __global__ void __launch_bounds__(288) rows_split(const float *__restrict__ A, float *__restrict__ B, int dim, int num, int step) {
// CHECK: dd::TileSlot<float, 256> s0[4]; // A[i * num + tid]
// CHECK: if (threadIdx.x >= dd_consumers) {
// CHECK: int tid = blockIdx.x * dd_consumers + 0u;
// CHECK-NEXT: dd::StageCursor<4> dd_c;
// CHECK-NEXT: for (int dd_j0 = 0; dd_j0 < dim; dd_j0 += 4 * (int)(step), dd_c.advance()) {
// CHECK-NEXT: dd_ring.acquire(dd_c);
// CHECK-NEXT: for (int dd_u = 0; dd_u < 4; ++dd_u) {
// CHECK-NEXT: const int i = dd_j0 + (int)(dd_u) * (int)(step);
// CHECK-NEXT: if (i < dim) {
// CHECK-NEXT: dd::copy_tile_async(dd_stages[dd_c.slot].s0[dd_u], &(A[i * num + tid]), 0, dd_consumers, dd_ring.full(dd_c));
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: dd_ring.commit(dd_c);
// CHECK: int tid = blockIdx.x * dd_consumers + threadIdx.x;
// CHECK: for (int dd_j0 = 0; dd_j0 < dim; dd_j0 += 4 * (int)(step), dd_c.advance()) {
// CHECK-NEXT: dd_ring.wait(dd_c);
// CHECK-NEXT: float dd_s0[4];
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int dd_u = 0; dd_u < 4; ++dd_u)
// CHECK-NEXT: if (dd_j0 + (int)(dd_u) * (int)(step) < dim) {
// CHECK-NEXT: dd_s0[dd_u] = dd_stages[dd_c.slot].s0[dd_u][threadIdx.x];
// CHECK-NEXT: }
// CHECK-NEXT: dd_ring.release(dd_c);
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int dd_u = 0; dd_u < 4; ++dd_u) {
// CHECK-NEXT: int i = dd_j0 + (int)(dd_u) * (int)(step);
// CHECK-NEXT: if (i < dim)
// CHECK-NEXT: B[i * num + tid] = dd_s0[dd_u] + 1;
// CHECK: const long long dd_step = step;
// CHECK-NEXT: const long long dd_trips =
// CHECK-NEXT: dd_step <= 0 ? -1 : dd_span <= 0 ? 0 : (dd_span + dd_step - 1) / dd_step;
// CHECK: rows_launch(n / 256, 256, 0, 0, A, B, dim, n, step);
__global__ void rows(const float *__restrict__ A, float *__restrict__ B, int dim, int num, int step) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // REMARK: rewrite-split.cu:[[@LINE+2]]:3: remark: split plan for loop: streams A[i * num + tid] (4 KiB stages x depth 4, U=4), {{.*}}; rewritten: rows_split (one producer warp, 4 stages of 4 iterations) and rows_launch for 1 launch [-Rdecoupler]
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i += step)
    B[i * num + tid] = A[i * num + tid] + 1;
}

void launch_rows(const float *A, float *B, int dim, int n, int step) {
  rows<<<n / 256, 256>>>(A, B, dim, n, step);
}

// Row tiles with barriers in the loop (§3.3.2): every consumer runs the same
// iterations, so each __syncthreads() of the loop becomes a barrier of the
// consumers alone; the producer warp never waits at one.
// CHECK: __global__ void __launch_bounds__(288) rowpairs_split(const unsigned *A, unsigned *B, int dim, int num, int step) {
// CHECK: dd_ring.release(dd_c);
// CHECK: if (i < dim) {
// CHECK-NEXT: tile[threadIdx.x] = dd_s0[dd_u];
// CHECK-NEXT: dd::consumer_sync(dd_consumers);
// CHECK-NEXT: B[i * num + tid] = tile[threadIdx.x] + 3 * tile[(threadIdx.x + 1) % dd_consumers];
// CHECK-NEXT: dd::consumer_sync(dd_consumers);
// CHECK: rowpairs_launch(num / 256, 256, 0, 0, A, B, dim, num, step);
__global__ void rowpairs(const unsigned *A, unsigned *B, int dim, int num, int step) {
  __shared__ unsigned tile[1024];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // REMARK: rewrite-split.cu:[[@LINE+2]]:3: remark: split plan for loop: {{.*}}; rewritten: rowpairs_split (one producer warp, 4 stages of 4 iterations) and rowpairs_launch for 1 launch [-Rdecoupler]
  DD_PRAGMA(decouple)
  for (int i = 0; i < dim; i += step) {
    tile[threadIdx.x] = A[i * num + tid];
    __syncthreads();
    B[i * num + tid] = tile[threadIdx.x] + 3 * tile[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
}

void launch_rowpairs(const unsigned *A, unsigned *B, int dim, int num, int step) {
  rowpairs<<<num / 256, 256>>>(A, B, dim, num, step);
}
