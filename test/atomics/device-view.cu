// decoupler reads kernels as the host compilation sees them; nvcc compiles
// them again for the GPU, where __CUDA_ARCH__ is defined. An atomic is
// rewritten only when its function, the kernels that reach it and what they
// call are the same code in both compilations (same tokens after
// preprocessing, for the parse's GPU architecture); otherwise it stays as
// written and the reason names the line where the two part.
// RUN: %decoupler --no-line-directives -Rdecoupler %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: grep -v '^ *// [A-Z]' %t.cu | FileCheck %s
// Shown by default: the monotonic kernel's warning, and nothing else.
// RUN: %decoupler --no-line-directives %s -o %t2.cu 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=warning: --implicit-check-not=remark:
// The test's own copy as the device compiles it for sm_75, where the
// `>= 800` branch is not taken: that kernel is then other code too.
// RUN: %decoupler --no-line-directives -Rdecoupler --cuda-gpu-arch=sm_75 %s -o %t3.cu 2>&1 | FileCheck %s --check-prefix=SM75
// REQUIRES: nvcc
// RUN: %nvcc -Werror all-warnings -I%S -c %t.cu -o %t.o
#include "Inputs/device-view-helper.cuh"
#include <dd/annotate.h>

// A histogram with a device-only fast path: privatizing the host view's
// atomic would have restructured the kernel for code the GPU never runs.
__global__ void arch_branch(const int *in, int n, unsigned *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  atomicAdd(&h[in[i] & 255], 2u);
#else
  // REMARK: device-view.cu:[[@LINE+3]]:3: remark: atomicAdd left unchanged: kernel 'arch_branch' is not the same code when compiled for the device (sm_90) as in the host compilation decoupler analyses (from line [[@LINE-2]]: a preprocessor condition on __CUDA_ARCH__, or a macro defined under one) [-Rdecoupler]
  // REMARK: device-view.cu:[[@LINE-3]]:3: note: the device compilation differs from here
  // CHECK: atomicAdd(&h[in[i] & 255], 1u);
  atomicAdd(&h[in[i] & 255], 1u);
#endif
}

// A macro defined under __CUDA_ARCH__ changes the tokens, not the lines.
#ifdef __CUDA_ARCH__
#define STEP 2u
#else
#define STEP 1u
#endif
__global__ void arch_macro(const int *in, int n, unsigned *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // REMARK: device-view.cu:[[@LINE+3]]:3: remark: atomicAdd left unchanged: kernel 'arch_macro' is not the same code when compiled for the device (sm_90) as in the host compilation decoupler analyses (from line [[@LINE+3]]: a preprocessor condition
  // REMARK: device-view.cu:[[@LINE+2]]:30: note: the device compilation differs from here
  // CHECK: atomicAdd(&h[in[i] & 255], STEP);
  atomicAdd(&h[in[i] & 255], STEP);
}

// A callee in a header that differs: the kernel's analysis read it.
__global__ void arch_callee(const int *in, int n, unsigned *h, unsigned *g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  bump(g, in[i] & 15);
  // REMARK: device-view.cu:[[@LINE+2]]:3: remark: atomicAdd left unchanged: kernel 'arch_callee' calls 'bump', which is not the same code when compiled for the device (sm_90) as in the host compilation decoupler analyses (from line 4 of {{.*}}device-view-helper.cuh: a preprocessor
  // CHECK: atomicAdd(&h[in[i] & 255], 1u);
  atomicAdd(&h[in[i] & 255], 1u);
}

// The common guard for a fallback on old GPUs reads the same on the host and
// on sm_90 (sm_75 takes the other branch): rewritten.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ void add(unsigned *h, int b) {
  // REMARK: device-view.cu:[[@LINE+3]]:3: remark: atomicAdd -> dd::atomic_add_vr
  // CHECK: dd::atomic_add_vr(&h[b], 1u);
  // SM75: device-view.cu:[[@LINE+1]]:3: remark: atomicAdd left unchanged: 'add' is not the same code when compiled for the device (sm_75) as in the host compilation decoupler analyses (from line [[@LINE-3]]: a preprocessor
  atomicAdd(&h[b], 1u);
}
#else
__device__ void add(unsigned *h, int b) { atomicInc(&h[b], ~0u); }
#endif
__global__ void same_on_both(const int *in, int n, unsigned *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    add(h, in[i] & 255);
}

// A monotonic kernel's min is left as written with the same reason, as the
// warning the annotation's declines are.
DD_PRAGMA(monotonic)
__global__ void relax(int *dist, const int *dst, const int *w, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m)
    return;
#ifdef __CUDA_ARCH__
  int nd = w[e];
#else
  int nd = w[e] + 1;
#endif
  // REMARK: device-view.cu:[[@LINE+3]]:3: warning: atomicMin not made monotonic: kernel 'relax' is not the same code when compiled for the device (sm_90) as in the host compilation decoupler analyses (from line [[@LINE-4]]: a preprocessor
  // DEFAULT: device-view.cu:[[@LINE+2]]:3: warning: atomicMin not made monotonic: kernel 'relax' is not the same code
  // CHECK: atomicMin(&dist[dst[e]], nd);
  atomicMin(&dist[dst[e]], nd);
}
