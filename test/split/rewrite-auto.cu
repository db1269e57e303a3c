// --split=auto rewrites an unannotated loop it accepts and can generate
// code for, and says so without -Rdecoupler (as --delegate=auto does); the
// split kernel and the launcher are those of an annotated loop
// (rewrite-split.cu), with no annotation to remove. Without --split=auto
// the file is left as written.
// RUN: %decoupler --passes=split --split=auto %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// RUN: %decoupler --passes=split %s -o %t.plain.cu 2>&1 | count 0
// RUN: diff %s %t.plain.cu
// REQUIRES: nvcc
// RUN: %nvcc -Xcompiler -Wall -Werror all-warnings -c %t.dd.cu -o %t.o

// CHECK: #include <dd/split_launch.h>

__global__ void rowsum(const float *A, float *y, int n) {
  __shared__ float partial[32];
  float sum = 0.0f;
  // REMARK: rewrite-auto.cu:[[@LINE+1]]:3: remark: --split=auto: split plan for loop: streams A[(long long)blockIdx.x * n + j] {{.*}}; rewritten: rowsum_split (one producer warp, 4 stages of 4 iterations) and rowsum_launch for 1 launch{{$}}
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += A[(long long)blockIdx.x * n + j];
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
      y[blockIdx.x] = sum;
  }
}
// The kernel as written stays; the split kernel and the launcher follow.
// CHECK: __global__ void rowsum(const float *A, float *y, int n) {
// CHECK-NEXT: __shared__ float partial[32];
// CHECK-NEXT: float sum = 0.0f;
// CHECK-NEXT: for (int j = threadIdx.x; j < n; j += blockDim.x)
// CHECK: __global__ void __launch_bounds__(288) rowsum_split(const float *A, float *y, int n) {
// CHECK: const unsigned dd_consumers = blockDim.x - 32;
// CHECK: dd::copy_tile_async(
// CHECK: dd::consumer_sync(dd_consumers);
// CHECK: static void rowsum_launch(dim3 dd_grid, dim3 dd_block, size_t dd_shmem, cudaStream_t dd_stream, const float *A, float *y, int n) {

void run(const float *A, float *y, int rows, int n) {
  // CHECK: rowsum_launch(rows, 256, 0, 0, A, y, n);
  rowsum<<<rows, 256>>>(A, y, n);
}
