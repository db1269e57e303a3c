// Cooperative groups in a loop kernel, the shapes of llm.c's layer norm
// (dev/cuda/layernorm_forward.cu, kernel5): a split kernel's block has one
// more warp, the producer, which runs no consumer code.
// - Warp tiles (tiled_partition<32>, cg::reduce over a tile) and
//   __syncthreads() are the consumers' own: the loop is split, blockDim.x
//   becomes dd_consumers and __syncthreads() dd::consumer_sync.
// - A block-wide group's sync (block.sync()) would wait for the producer
//   too: the loop is not rewritten, and the remark says why.
// RUN: %decoupler --passes=split --split=auto -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
// RUN: grep -v '^ *// [A-Z]' %t.dd.cu | FileCheck %s
// REQUIRES: nvcc
// RUN: %nvcc -c %t.dd.cu -o %t.o
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void row_stats(const float *__restrict__ in, float *__restrict__ mean, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float shared_sum[32];
  int num_warps = blockDim.x / 32;
  int warp_id = threadIdx.x / 32;
  int lane_id = threadIdx.x % 32;
  const float *x = in + blockIdx.x * C;
  float thread_sum = 0.0f;
  // REMARK: cooperative-groups.cu:[[@LINE+1]]:3: remark: --split=auto: split plan for loop: streams x[i] {{.*}}; rewritten: row_stats_split {{.*}}
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    thread_sum += x[i];
  float warp_sum = cg::reduce(warp, thread_sum, cg::plus<float>{});
  shared_sum[warp_id] = warp_sum;
  __syncthreads();
  warp_sum = lane_id < num_warps ? shared_sum[lane_id] : 0.0f;
  float block_sum = cg::reduce(warp, warp_sum, cg::plus<float>{});
  if (threadIdx.x == 0)
    mean[blockIdx.x] = block_sum / C;
}
// CHECK: __global__ void {{.*}}row_stats_split(
// CHECK: cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
// CHECK: int num_warps = dd_consumers / 32;
// CHECK: dd::consumer_sync(dd_consumers);
// CHECK: float block_sum = cg::reduce(warp, warp_sum, cg::plus<float>{});

__global__ void row_sum_block_sync(const float *__restrict__ in, float *__restrict__ out, int C) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[1024];
  float sum = 0.f;
  const float *x = in + blockIdx.x * C;
  // REMARK: cooperative-groups.cu:[[@LINE+1]]:3: remark: --split=auto: split plan for loop: {{.*}}; not rewritten: sync(): the code generator replaces only __syncthreads()
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    sum += x[i];
  s[threadIdx.x] = sum;
  block.sync();
  if (threadIdx.x == 0) {
    float t = 0.f;
    for (int j = 0; j < (int)blockDim.x; ++j)
      t += s[j];
    out[blockIdx.x] = t;
  }
}
// CHECK-NOT: row_sum_block_sync_split

void launch(const float *in, float *mean, float *out, int rows, int C) {
  row_stats<<<rows, 256>>>(in, mean, C);
  row_sum_block_sync<<<rows, 256>>>(in, out, C);
}
