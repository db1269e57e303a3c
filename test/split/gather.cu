// Strided gather (bench/split/gather.cuh, original) with the stride fixed at
// compile time: S=2 (8-byte thread stride, 8 sectors per warp request,
// 16 KiB in flight per SM with the aliasing store) is accepted, with rule 5
// preferring restrict/hoist; S=8 (32 sectors, 64 KiB in flight) is already
// bandwidth-bound and declined. split-study.md section 6.
// RUN: %decoupler --passes=split -Rdecoupler %s -o %t.dd.cu 2>&1 | FileCheck %s

#include <dd/annotate.h>

__global__ void gather2(const float *in, float *out, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    // CHECK: gather.cu:[[@LINE+2]]:5: remark: split plan for loop: streams in[(long long)(i * num + tid) * 2] (4 KiB stages x depth 4, U=4), {{[0-9]+}} B shared memory per block; predicted 1.2x; {{.*}}restrict/hoist rewrite (split-study.md rule 5) applies and should be preferred; rewritten: restrict/hoist rewrite (split-study.md rule 5) instead of a split: __restrict__ on in, out {{.*}}
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * 2];
}

__global__ void gather8(const float *in, float *out, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    // CHECK: gather.cu:[[@LINE+2]]:5: warning: loop not decoupled: already bandwidth-bound: the original keeps 64 KiB in flight per SM (>= 24 KiB); predicted gain 0.90x is below 1.2x [-Wdecoupler-declined]
    DD_PRAGMA(decouple)
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * 8];
}

void launch(const float *in, float *out, int dim, int num) {
  gather2<<<(num + 255) / 256, 256>>>(in, out, dim, num);
  gather8<<<(num + 255) / 256, 256>>>(in, out, dim, num);
}
