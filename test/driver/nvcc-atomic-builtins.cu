// REQUIRES: nvcc
// nvcc's scoped atomic builtins (__nv_atomic_load_n, __nv_atomic_fetch_add,
// __nv_atomic_thread_fence, ...) and their enums (__NV_ATOMIC_RELAXED,
// __NV_THREAD_SCOPE_DEVICE) are nvcc's own; clang has neither, so the tool
// refused every file that used them (HeCBench's atomicCAS, scatter,
// hausdorff, lebesgue, graphB+ and michalewicz). The prelude declares them
// (tool/NvccPrelude.cpp). The passes count a call of one as a write of what
// its pointer points to, and the fence as a fence.
// RUN: %decoupler -Rdecoupler --no-line-directives %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc -c %t.cu -o %t.o
//
// Clang alone, on the CUDA installation the tool parses with, rejects the file.
// RUN: not %clang -x cuda --cuda-host-only --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version -fsyntax-only -ferror-limit=0 %s 2>&1 | FileCheck %s --check-prefix=CLANG
// (clang names the enums; a call with an argument in error is not looked up.)
// CLANG-DAG: use of undeclared identifier '__NV_ATOMIC_RELAXED'
// CLANG-DAG: use of undeclared identifier '__NV_THREAD_SCOPE_DEVICE'
// CLANG-DAG: use of undeclared identifier '__NV_ATOMIC_RELEASE'
//
// Every builtin nvcc 13 has, in the prelude the tool parses with.
// RUN: %decoupler --print-nvcc-prelude | FileCheck %s --check-prefix=PRELUDE
// PRELUDE: enum { __NV_ATOMIC_RELAXED,
// PRELUDE: __device__ T __nv_atomic_load_n(const T *, int, int __scope = __NV_THREAD_SCOPE_SYSTEM);
// PRELUDE: __nv_atomic_compare_exchange_n(T *, T *, U, bool, int, int,
// PRELUDE: __device__ T __nv_atomic_fetch_xor(T *, U, int,
// PRELUDE: __device__ void __nv_atomic_thread_fence(int, int __scope = __NV_THREAD_SCOPE_SYSTEM);
#include <cstdio>

// REMARK-NOT: error
// A CAS loop that starts from nvcc's relaxed load (HeCBench's atomicCAS).
__device__ double atomic_min_double(double *address, double val) {
  unsigned long long *p = (unsigned long long *)address;
  unsigned long long ret = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);
  while (val < __longlong_as_double(ret)) {
    unsigned long long old = ret;
    // REMARK: nvcc-atomic-builtins.cu:[[@LINE+1]]:16: remark: atomicCAS left unchanged
    if ((ret = atomicCAS(p, old, __double_as_longlong(val))) == old)
      break;
  }
  return __longlong_as_double(ret);
}

// The builtin is a call the privatize pass does not follow, so one block
// does not run several blocks' threads; the kernel's own 'hits' is still
// privatized. 'other' is updated by a builtin too, so it keeps its global
// atomics (aggregated by lanes: the builtin's adds land all the same).
// CHECK-LABEL: void reduce_min(
// CHECK: dd_private_hits.update(i & 255, 1u);
// CHECK: dd::atomic_add_vr(&other[i & 7], 1u);
// CHECK: __nv_atomic_fetch_add(&other[0], 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
__global__ void reduce_min(const double *in, int n, double *out, unsigned *hits, unsigned *other) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomic_min_double(out, in[i]);
  // REMARK: nvcc-atomic-builtins.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd_private_hits.update: {{.*}}(one block may not run the threads of several: it calls '__nv_atomic_load_n' (line {{[0-9]+}}, in function 'atomic_min_double'))
  atomicAdd(&hits[i & 255], 1u);
  // REMARK: nvcc-atomic-builtins.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd::atomic_add_vr: {{.*}}(not privatized: kernel 'reduce_min' also uses 'other' otherwise (line [[@LINE+2]])
  atomicAdd(&other[i & 7], 1u);
  __nv_atomic_fetch_add(&other[0], 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}

// A fence by the builtin is a fence: one block may run several blocks'
// threads, as with __threadfence (test/atomics/privatize-coarse.cu).
// CHECK-LABEL: void fenced(
// CHECK: __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
// CHECK: dd_private_counts.update(
__global__ void fenced(const unsigned *keys, unsigned n, unsigned *counts, unsigned *seen) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned key = keys[i];
  seen[blockIdx.y * n + i] = key;
  __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  // REMARK: nvcc-atomic-builtins.cu:[[@LINE+1]]:3: remark: atomicAdd -> dd_private_counts.update: {{.*}}one block runs the threads of several consecutive blocks
  atomicAdd(&counts[(key * 2 + blockIdx.y) % 512], 1u);
}

// An update by a builtin is a write the annotation's check sees: the words
// may not move one way, so the atomic stays as written, with a warning.
// CHECK-LABEL: void relax(
// CHECK: atomicMin(&dist[v], d);
#include <dd/annotate.h>
DD_PRAGMA(monotonic)
__global__ void relax(const unsigned *edges, unsigned n, unsigned *dist) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned v = edges[i], d = i % 97;
  if (__nv_atomic_load_n(&dist[v], __NV_ATOMIC_ACQUIRE) == ~0u)
    __nv_atomic_fetch_min(&dist[v], 1000u, __NV_ATOMIC_RELAXED);
  // REMARK: nvcc-atomic-builtins.cu:[[@LINE+2]]:3: warning: atomicMin left as written: the kernel also passes 'dist' to '__nv_atomic_fetch_min', which may write it
  // REMARK: nvcc-atomic-builtins.cu:[[@LINE-2]]:5: note: the other write is here
  atomicMin(&dist[v], d);
}

// The program, for the GPU differential run (docs/corpus.md): prints what
// the kernels computed, the same as written and rewritten.
int main() {
  const int n = 1 << 16;
  double *in, *out;
  unsigned *hits, *other, *keys, *counts, *seen, *level;
  cudaMallocManaged(&in, n * sizeof(double));
  cudaMallocManaged(&out, sizeof(double));
  cudaMallocManaged(&hits, 256 * sizeof(unsigned));
  cudaMallocManaged(&other, 8 * sizeof(unsigned));
  cudaMallocManaged(&keys, n * sizeof(unsigned));
  cudaMallocManaged(&counts, 512 * sizeof(unsigned));
  cudaMallocManaged(&seen, 2 * n * sizeof(unsigned));
  cudaMallocManaged(&level, 4096 * sizeof(unsigned));
  unsigned x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    in[i] = (x >> 8) * 1e-3 - 1000.0;
    keys[i] = x >> 4;
  }
  *out = 1e30;
  cudaMemset(hits, 0, 256 * sizeof(unsigned));
  cudaMemset(other, 0, 8 * sizeof(unsigned));
  cudaMemset(counts, 0, 512 * sizeof(unsigned));
  cudaMemset(level, 0, 4096 * sizeof(unsigned));
  for (int block : {32, 100, 256, 1024}) {
    reduce_min<<<(n + block - 1) / block, block>>>(in, n, out, hits, other);
    fenced<<<dim3((n + block - 1) / block, 2), block>>>(keys, n, counts, seen);
  }
  for (int i = 0; i < n; ++i)
    keys[i] %= 4096;
  cudaMemset(level, 0xff, 4096 * sizeof(unsigned));
  relax<<<(n + 255) / 256, 256>>>(keys, n, level);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("CUDA error\n");
    return 1;
  }
  unsigned long long h = 0;
  for (int i = 0; i < 256; ++i)
    h = h * 31 + hits[i];
  for (int i = 0; i < 8; ++i)
    h = h * 31 + other[i];
  for (int i = 0; i < 512; ++i)
    h = h * 31 + counts[i];
  std::printf("min %.6f hits+other+counts %llx\n", *out, h);
  // Every word some thread reached: the least of its d (below 97, under the
  // 1000 a first visitor may leave), whatever the order.
  unsigned long long g = 0;
  for (int i = 0; i < 4096; ++i)
    g = g * 31 + level[i];
  std::printf("dist %llx\n", g);
  return 0;
}
