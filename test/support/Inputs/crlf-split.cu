// A split input (test/split/rewrite-split.cu without its checks).
#include <dd/annotate.h>

// The kernel as written, the annotation gone.
__global__ void matvec(const float *A, const float *x, float *y, int n) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  float sum = 0.0f;
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
// The producer: the slice (row) and thread 0's loop control, one copy per stage.
// The consumers: the body as written, the loop over block-uniform stages.
// The launcher: trip count n / block for the minimum of 32 iterations.

void launch(const float *A, const float *x, float *y, int rows, int n, cudaStream_t s) {
  matvec<<<rows, 256>>>(A, x, y, n);
  matvec<<<rows, 256, 0, s>>>(A, x, y, n);
}

// Doubles, a start offset, a local only the stream reads, a compound body
// with continue, dynamic shared memory and a launch before the definition.
__global__ void rowsum(const double *A, double *y, int n, int off);

void launch_first(const double *A, double *y, int rows, int n, int off) {
  rowsum<<<rows, 128>>>(A, y, n, off);
}

__global__ void rowsum(const double *A, double *y, int n, int off) {
  extern __shared__ double partial[];
  const long long base = (long long)blockIdx.x * n;
  double sum = 0.0;
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

void launch(const double *A, double *y, int rows, int n, cudaStream_t s) {
  rowsum<<<rows, 128, 128 * sizeof(double), s>>>(A, y, n, 0);
}

// Tiles: the producer recomputes thread 0's address (tid with threadIdx.x
// 0 and blockDim.x the consumer count) and copies U tiles of dd_consumers
// elements per stage; thread t reads element t of tile u.
__global__ void rows(const float *__restrict__ A, float *__restrict__ B, int dim, int num, int step) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
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
__global__ void rowpairs(const unsigned *A, unsigned *B, int dim, int num, int step) {
  __shared__ unsigned tile[1024];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
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
