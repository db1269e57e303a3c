// <dd/atomics.cuh> on every architecture: sr, inc_sr and inc_uniform need
// sm_70 (__match_any_sync) and say so; vr, uniform, filtered and monotonic
// work below.
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_nvcc %all_archs -DDD_ATOMICS_NO_REDUX -DDD_ATOMICS_NO_MATCH32 -DDD_ATOMICS_CHECK_UNIFORM %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_70 %s
// RUN: %arch_clang --cuda-gpu-arch=sm_60 -DBELOW_SM70 %s
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 -DBELOW_SM70 -DUSE_SR %s 2>&1 | FileCheck %s --check-prefix=SR
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 -DBELOW_SM70 -DUSE_INC_UNIFORM %s 2>&1 | FileCheck %s --check-prefix=SR
// RUN: not %arch_clang --cuda-gpu-arch=sm_60 -DBELOW_SM70 -DDD_ATOMICS_CHECK_UNIFORM %s 2>&1 | FileCheck %s --check-prefix=CHECK-UNIFORM
// SR: error: static assertion failed {{.*}}dd::atomic_*_sr and dd::atomic_inc_sr/_uniform need sm_70 or newer for __match_any_sync
// CHECK-UNIFORM: error: static assertion failed {{.*}}DD_ATOMICS_CHECK_UNIFORM needs sm_70 or newer for __match_all_sync
#include <dd/atomics.cuh>

template <class T> __device__ void every_variant(T *p, T v) {
#if !defined(BELOW_SM70) || defined(USE_SR)
  dd::atomic_add_sr(p, v);
  dd::atomic_max_sr(p + 1, v);
#endif
  dd::atomic_add_vr(p, v);
  dd::atomic_min_vr(p + 1, v);
  dd::atomic_add_uniform(p, v);
  dd::atomic_max_uniform(p + 1, v);
}

template <class T> __device__ void bitwise(T *p, T v) {
#if !defined(BELOW_SM70)
  dd::atomic_and_sr(p, v);
#endif
  dd::atomic_or_vr(p, v);
  dd::atomic_xor_uniform(p, v);
}

__global__ void kernel(int *i, unsigned *u, unsigned long long *ull, long long *ll, float *f,
                       double *d) {
  every_variant(i, 1);
  every_variant(u, 1u);
  every_variant(ull, 1ull);
  dd::atomic_min_vr(ll, -1ll);
  dd::atomic_add_vr(f, 1.0f);
  dd::atomic_add_uniform(d, 1.0);
  bitwise(u, 3u);
  bitwise(ull, 3ull);
  dd::atomic_inc_vr(u, 7u);
#if !defined(BELOW_SM70) || defined(USE_INC_UNIFORM)
  dd::atomic_inc_sr(u, 7u);
  dd::atomic_inc_uniform(u, 7u);
#endif
  dd::monotonic_min(f, 0.5f);
  dd::monotonic_max(ull, 5ull);
  dd::atomic_min_filtered(i, -3);
  dd::atomic_max_filtered(u, 9u);
  dd::atomic_min_filtered(ll, -7ll);
  dd::atomic_max_filtered(ull, 11ull);
}
