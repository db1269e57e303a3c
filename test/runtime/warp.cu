// The warp helpers, reductions, operation tags and scatter indices work on
// every architecture (__reduce_*_sync from sm_80 on, shuffles below).
// REQUIRES: nvcc
// RUN: %arch_nvcc %all_archs %s -o %t.o
// RUN: %arch_nvcc %all_archs -DDD_ATOMICS_NO_REDUX %s -o %t.o
// RUN: %arch_clang --cuda-gpu-arch=sm_60 %s
#include <dd/atomic_ops.cuh>
#include <dd/scatter.cuh>
#include <dd/type_traits.cuh>
#include <dd/warp.cuh>
#include <dd/warp_reduce.cuh>

template <class T> __device__ T sums(T x) {
  const unsigned active = __activemask();
  return dd::detail::mask_reduce<dd::ops::add>(active, x) +
         dd::detail::mask_reduce<dd::ops::max>(active, x);
}

__global__ void kernel(const unsigned *remap, unsigned *u, unsigned long long *ull, float *f,
                       dd::identity_t<int> *i) {
  const unsigned long long t = dd::remapped_thread_index(remap);
  if (dd::is_lowest_lane_of(__activemask()))
    u[0] = dd::lane_id() + dd::rank_in(dd::lanemask_lt() | 1u) + sums(u[t]);
  ull[t] = sums(ull[t]);
  f[t] = dd::detail::mask_reduce<dd::ops::add>(__activemask(), f[t]);
  dd::ops::min::atomic(i, 3);
}
