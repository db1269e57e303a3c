// The hand-written columns of atomics_bench: the kernels of kernels.cu with
// their atomic replaced by a policy (SR, VR, monotonic) and, for the SS
// columns, their thread index taken through a scatter remap
// (dd::remapped_thread_index). Same block size, same work per thread.
#ifndef DD_BENCH_ATOMICS_VARIANTS_CUH
#define DD_BENCH_ATOMICS_VARIANTS_CUH

#include <dd/atomics.cuh>

namespace variants {

/// Match and reduce.
struct SR {
  template <class T> __device__ static void add(T *p, T v) { dd::atomic_add_sr(p, v); }
  template <class T> __device__ static void min(T *p, T v) { dd::atomic_min_sr(p, v); }
  __device__ static void inc(unsigned *p, unsigned limit) { dd::atomic_inc_sr(p, limit); }
};

/// Vote and reduce.
struct VR {
  template <class T> __device__ static void add(T *p, T v) { dd::atomic_add_vr(p, v); }
  template <class T> __device__ static void min(T *p, T v) { dd::atomic_min_vr(p, v); }
  __device__ static void inc(unsigned *p, unsigned limit) { dd::atomic_inc_vr(p, limit); }
};

/// Monotonic guarded write (SSSP only).
struct Monotonic {
  template <class T> __device__ static void min(T *p, T v) { dd::monotonic_min(p, v); }
};

constexpr unsigned kBlock = 256;

/// The element this thread works on: the plain index, or the remapped one.
/// remap_warps is the remap's length; threads of warps beyond it get ~0.
template <bool Remap>
__device__ __forceinline__ unsigned long long element(const unsigned *remap,
                                                      unsigned long long remap_warps) {
  if constexpr (Remap)
    return dd::remapped_thread_index(remap, remap_warps);
  else
    return blockIdx.x * blockDim.x + threadIdx.x;
}

template <class P, bool Remap>
__global__ void histogram(const unsigned *keys, unsigned n, unsigned *bins,
                          const unsigned *remap, unsigned long long remap_warps) {
  const unsigned long long i = element<Remap>(remap, remap_warps);
  if (i < n)
    P::add(&bins[keys[i]], 1u);
}

template <class P>
__global__ void histogram_inc(const unsigned *keys, unsigned n, unsigned *bins, unsigned limit) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    P::inc(&bins[keys[i]], limit);
}

template <class P, bool Remap>
__global__ void spmv_coo(const unsigned *rows, const unsigned *cols, const float *vals,
                         const float *x, float *y, unsigned nnz, const unsigned *remap,
                         unsigned long long remap_warps) {
  const unsigned long long i = element<Remap>(remap, remap_warps);
  if (i < nnz)
    P::add(&y[rows[i]], vals[i] * x[cols[i]]);
}

/// `Check`: the relaxation tests the word before its atomic (sssp), or
/// does not (sssp-nocheck: every edge from a reached vertex issues it).
template <class P, bool Remap, bool Check = true>
__global__ void sssp_relax(const unsigned *src, const unsigned *dst, const unsigned *weight,
                           unsigned *dist, unsigned m, int *changed, const unsigned *remap,
                           unsigned long long remap_warps) {
  const unsigned long long i = element<Remap>(remap, remap_warps);
  if (i >= m)
    return;
  const unsigned du = dist[src[i]];
  if (du == 0xffffffffu)
    return;
  const unsigned nd = du + weight[i];
  if (!Check) { // kernels.cu's sssp_relax_nocheck
    if (nd < dist[dst[i]])
      *changed = 1;
    P::min(&dist[dst[i]], nd);
    return;
  }
  if (nd < dist[dst[i]]) {
    P::min(&dist[dst[i]], nd);
    *changed = 1;
  }
}

/// Blocks for n elements, or for a remap of `warps` warps.
inline unsigned blocks_for(unsigned long long n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

} // namespace variants

#endif // DD_BENCH_ATOMICS_VARIANTS_CUH
