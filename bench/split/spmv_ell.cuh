// (c) Sparse matrix-vector product, ELL format stored column-major (Bell &
// Garland's ELL kernel): entry k of row r at k*num_rows + r, padding marked
// by column -1. The index and value loads are affine (stride 4 bytes) and go
// through the ring; the x[col] gather is not affine and stays with the
// consumers.
#ifndef DD_BENCH_SPLIT_SPMV_ELL_CUH
#define DD_BENCH_SPLIT_SPMV_ELL_CUH

#include "common.cuh"

namespace split {

/// As written (no stores in the loop: the compiler is free to unroll it and
/// hoist the index/value loads; the gathers depend on them).
__global__ void spmv_ell_original(int num_rows, int max_cols, const int *cols, const float *vals,
                                  const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float sum = 0.0f;
    for (int k = 0; k < max_cols; ++k) {
      int col = cols[k * num_rows + row];
      float val = vals[k * num_rows + row];
      if (col >= 0)
        sum = __fmaf_rn(val, x[col], sum);
    }
    y[row] = sum;
  }
}

/// The split: a stage holds U consecutive k (U index tiles, U value tiles).
/// Consumers copy the stage to registers and release it at once, then
/// issue the U gathers of x together (predicated, not branched: a branch
/// around each gather and its use would put one gather in flight at a time)
/// and accumulate in the original order.
template <unsigned Depth, unsigned U>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    spmv_ell_split(int num_rows, int max_cols, const int *cols, const float *vals, const float *x,
                   float *y) {
  using Ring = dd::StageRing<Depth>;
  struct Stage {
    dd::TileSlot<int, kBlock> cols[U];
    dd::TileSlot<float, kBlock> vals[U];
  };
  __shared__ typename Ring::Storage ring_storage;
  __shared__ Stage stages[Depth];
  Ring ring(ring_storage);
  ring.init(kConsumerWarps);
  const int row0 = blockIdx.x * kBlock;
  dd::StageCursor<Depth> c;
  if (threadIdx.x >= kBlock) {
    const unsigned count = min(kBlock, unsigned(num_rows - row0));
    for (int k0 = 0; k0 < max_cols; k0 += U, c.advance()) {
      ring.acquire(c);
      Stage &st = stages[c.slot];
      for (int u = 0; u < int(U) && k0 + u < max_cols; ++u) {
        const int off = (k0 + u) * num_rows + row0;
        dd::copy_tile_async(st.cols[u], cols + off, 0, count, ring.full(c));
        dd::copy_tile_async(st.vals[u], vals + off, 0, count, ring.full(c));
      }
      ring.commit(c);
    }
  } else {
    const unsigned t = threadIdx.x;
    const int row = row0 + int(t);
    const bool active = row < num_rows;
    float sum = 0.0f;
    for (int k0 = 0; k0 < max_cols; k0 += U, c.advance()) {
      ring.wait(c);
      const Stage &st = stages[c.slot];
      int col[U];
      float val[U], xv[U];
#pragma unroll
      for (int u = 0; u < int(U); ++u) {
        const bool in = k0 + u < max_cols && active;
        col[u] = in ? st.cols[u][t] : -1;
        val[u] = in ? st.vals[u][t] : 0.0f;
      }
      ring.release(c);
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        xv[u] = col[u] >= 0 ? x[col[u]] : 0.0f;
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (col[u] >= 0)
          sum = __fmaf_rn(val[u], xv[u], sum);
    }
    if (active)
      y[row] = sum;
  }
}

/// A random ELL matrix: row r has between max_cols/2 and max_cols entries
/// at uniformly random columns, values in [-1, 1); padding is (-1, 0).
__global__ void make_ell_kernel(int num_rows, int max_cols, int *cols, float *vals,
                                std::uint64_t seed) {
  const std::size_t n = std::size_t(num_rows) * max_cols;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const int k = int(i / num_rows), r = int(i % num_rows);
    const int len = max_cols / 2 + int(hash2(seed, r) % unsigned(max_cols - max_cols / 2 + 1));
    const bool real = k < len;
    cols[i] = real ? int(hash2(seed + 1, i) % unsigned(num_rows)) : -1;
    vals[i] = real ? hash_float(seed + 2, i) : 0.0f;
  }
}

struct SpmvData {
  int num_rows, max_cols;
  std::vector<DeviceArray<int>> cols;
  std::vector<DeviceArray<float>> vals, x, y;
  SpmvData(int rows, int k, int sets) : num_rows(rows), max_cols(k) {
    for (int s = 0; s < sets; ++s) {
      cols.emplace_back(std::size_t(rows) * k);
      vals.emplace_back(std::size_t(rows) * k);
      x.emplace_back(rows);
      y.emplace_back(rows);
    }
  }
  void fill(std::uint64_t seed) {
    for (std::size_t s = 0; s < cols.size(); ++s) {
      make_ell_kernel<<<1024, 256>>>(num_rows, max_cols, cols[s].ptr, vals[s].ptr, seed);
      DD_CUDA_CHECK(cudaGetLastError());
      fill_random(x[s].ptr, x[s].n, seed + 3);
    }
  }
};

template <unsigned D, unsigned U> Variant spmv_split_variant(SpmvData &d) {
  return {fmt("split D%u U%u", D, U), reinterpret_cast<const void *>(spmv_ell_split<D, U>),
          kSplitThreads, [&d](int s) {
            spmv_ell_split<D, U><<<ceil_div(d.num_rows, kBlock), kSplitThreads>>>(
                d.num_rows, d.max_cols, d.cols[s].ptr, d.vals[s].ptr, d.x[s].ptr, d.y[s].ptr);
          }};
}

inline std::vector<Variant> spmv_variants(SpmvData &d) {
  std::vector<Variant> v;
  v.push_back({"original", reinterpret_cast<const void *>(spmv_ell_original), kBlock, [&d](int s) {
                 spmv_ell_original<<<ceil_div(d.num_rows, kBlock), kBlock>>>(
                     d.num_rows, d.max_cols, d.cols[s].ptr, d.vals[s].ptr, d.x[s].ptr, d.y[s].ptr);
               }});
  v.push_back(spmv_split_variant<4, 2>(d));
  v.push_back(spmv_split_variant<3, 4>(d));
  v.push_back(spmv_split_variant<2, 8>(d));
  return v;
}

inline void spmv_bench(Bench &b) {
  if (!b.wants("spmv"))
    return;
  const int sizes[][2] = {{1, 1}, {1000, 5}, {12345, 16}, {777, 3}, {(1 << 20) + 3, 16}};
  int seed = 1;
  for (auto &sz : sizes) {
    if (b.quick && std::size_t(sz[0]) * sz[1] > (1u << 16))
      continue;
    SpmvData d(sz[0], sz[1], 1);
    d.fill(300 + 10 * seed++);
    auto vs = spmv_variants(d);
    const std::string size = fmt("rows=%d K=%d", d.num_rows, d.max_cols);
    b.check("spmv", size, vs, d.y[0]);
  }
  if (b.quick)
    return;
  // 2^22 rows, K = 16: 512 MiB of indices and values; x is 16 MiB and
  // stays in the L2, as it does for most real matrices of this size.
  const int rows = 1 << 22, k = 16;
  const double bytes = double(rows) * k * 8 + 2.0 * rows * 4;
  SpmvData d(rows, k, b.sets_for(bytes));
  d.fill(11);
  auto vs = spmv_variants(d);
  b.time("spmv", fmt("rows=2^22 K=%d", k), vs, int(d.cols.size()), bytes);
}

} // namespace split

#endif // DD_BENCH_SPLIT_SPMV_ELL_CUH
