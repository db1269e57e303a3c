// The benchmark's kernels as a programmer writes them: plain CUDA atomics,
// one thread per element. This file is the "naive" column of
// atomics_bench, and, passed through `decoupler --atomics-float`, the
// "auto" column (build.sh writes kernels.dd.cu and compiles it with
// -DDD_BENCH_NS=autorw, so both versions link into one binary).
//
// Keep it plain: no dd:: calls here. The only annotation is the one a
// programmer would add: in the SSSP kernels distances only decrease, so
// they are annotated monotonic (sssp_relax's atomicMin, which its own check
// guards, stays as written; sssp_relax_nocheck's becomes a filtered atomic).
#include <dd/annotate.h>

#ifndef DD_BENCH_NS
#define DD_BENCH_NS naive
#endif

namespace DD_BENCH_NS {

/// bins[keys[i]] += 1 for every i < n.
__global__ void histogram(const unsigned *keys, unsigned n, unsigned *bins) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[keys[i]], 1u);
}

/// bins[keys[i]] = atomicInc(bins[keys[i]], limit) for every i < n: a
/// histogram of counters that wrap at `limit`.
__global__ void histogram_inc(const unsigned *keys, unsigned n, unsigned *bins,
                              unsigned limit) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicInc(&bins[keys[i]], limit);
}

/// y += A x for A in coordinate form (rows, cols, vals), one thread per
/// nonzero.
__global__ void spmv_coo(const unsigned *rows, const unsigned *cols, const float *vals,
                         const float *x, float *y, unsigned nnz) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz)
    atomicAdd(&y[rows[i]], vals[i] * x[cols[i]]);
}

/// One Bellman-Ford round over all edges (topology-driven): relax every
/// edge (src, dst, w) whose source is reached; *changed = 1 when some
/// distance improved. The host re-launches until a round changes nothing.
DD_PRAGMA(monotonic)
__global__ void sssp_relax(const unsigned *src, const unsigned *dst, const unsigned *weight,
                           unsigned *dist, unsigned m, int *changed) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m)
    return;
  const unsigned du = dist[src[i]];
  if (du == 0xffffffffu)
    return;
  const unsigned nd = du + weight[i];
  if (nd < dist[dst[i]]) {
    atomicMin(&dist[dst[i]], nd);
    *changed = 1;
  }
}

/// The same round written without the check before the atomic: every edge
/// whose source is reached issues its atomicMin, and the flag comes from a
/// comparison of its own. This is the shape the monotonic annotation's
/// filtered atomic is for: the pass adds the check the kernel lacks.
DD_PRAGMA(monotonic)
__global__ void sssp_relax_nocheck(const unsigned *src, const unsigned *dst,
                                   const unsigned *weight, unsigned *dist, unsigned m,
                                   int *changed) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m)
    return;
  const unsigned du = dist[src[i]];
  if (du == 0xffffffffu)
    return;
  const unsigned nd = du + weight[i];
  if (nd < dist[dst[i]])
    *changed = 1;
  atomicMin(&dist[dst[i]], nd);
}

// Host launchers (the driver calls DD_BENCH_NS::launch_*; same block size
// as the hand-written variants).
constexpr unsigned kBlock = 256;
inline unsigned blocks_for(unsigned n) { return (n + kBlock - 1) / kBlock; }

void launch_histogram(const unsigned *keys, unsigned n, unsigned *bins) {
  histogram<<<blocks_for(n), kBlock>>>(keys, n, bins);
}
void launch_histogram_inc(const unsigned *keys, unsigned n, unsigned *bins, unsigned limit) {
  histogram_inc<<<blocks_for(n), kBlock>>>(keys, n, bins, limit);
}
void launch_spmv_coo(const unsigned *rows, const unsigned *cols, const float *vals,
                     const float *x, float *y, unsigned nnz) {
  spmv_coo<<<blocks_for(nnz), kBlock>>>(rows, cols, vals, x, y, nnz);
}
void launch_sssp_relax(const unsigned *src, const unsigned *dst, const unsigned *weight,
                       unsigned *dist, unsigned m, int *changed) {
  sssp_relax<<<blocks_for(m), kBlock>>>(src, dst, weight, dist, m, changed);
}
void launch_sssp_relax_nocheck(const unsigned *src, const unsigned *dst,
                               const unsigned *weight, unsigned *dist, unsigned m,
                               int *changed) {
  sssp_relax_nocheck<<<blocks_for(m), kBlock>>>(src, dst, weight, dist, m, changed);
}

} // namespace DD_BENCH_NS
