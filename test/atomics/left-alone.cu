// What the atomics pass leaves alone, each with the reason as a remark; a
// file where nothing applies is written unchanged.
// RUN: %decoupler -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s
// RUN: diff %s %t.cu
// The output compiles with nvcc for sm_90.
// REQUIRES: nvcc
// RUN: %nvcc -c %t.cu -o %t.o
#include <cuda_fp16.h>
#define ADD_ONE(p) atomicAdd(p, 1)
// CHECK: left-alone.cu:[[@LINE+1]]:47: remark: atomicAdd left unchanged: its result is used
__device__ int unused_helper(int *p) { return atomicAdd(p, 1) > 0; }

__global__ void k(int *a, float *f, double *d, const int *keys, int *out,
                  __half *h) {
  int i = keys[threadIdx.x];
  // CHECK: left-alone.cu:[[@LINE+1]]:13: remark: atomicAdd left unchanged: its result is used [-Rdecoupler]
  int old = atomicAdd(&a[i], 1);
  out[threadIdx.x] = old;
  // CHECK: left-alone.cu:[[@LINE+1]]:7: remark: atomicAdd left unchanged: its result is used
  if (atomicAdd(&a[i], 1) == 0)
    out[0] = 1;
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicCAS left unchanged: not an update that can be combined across lanes
  atomicCAS(&a[i], 0, 1);
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicExch left unchanged: not an update that can be combined across lanes
  atomicExch(&a[i], 7);
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicDec left unchanged: not an update that can be combined across lanes
  atomicDec((unsigned *)&a[i], 10u);
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicAdd_block left unchanged: block-scoped atomics are not rewritten
  atomicAdd_block(&a[i], 1);
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicAdd_system left unchanged: system-scoped atomics are not rewritten
  atomicAdd_system(&a[i], 1);
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: aggregating reorders floating-point additions (--atomics-float allows it)
  atomicAdd(&f[i], 1.0f);
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: aggregating reorders floating-point additions
  atomicAdd(d, 1.0);
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: no aggregated variant for __half
  atomicAdd(&h[i], __float2half(1.0f));
  // CHECK: left-alone.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: it is written through a macro
  ADD_ONE(&a[i]);
  // CHECK: left-alone.cu:[[@LINE+2]]:3: remark: atomicOr left unchanged: annotated atomic(none)
#pragma dd atomic(none)
  atomicOr(&a[i], 4);
}
