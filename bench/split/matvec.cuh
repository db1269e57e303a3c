// (e) Dense matrix-vector product y = A·x, one row per thread block: thread t
// accumulates A[row][j]·x[j] for j = t, t + 256, ..., then the block sums
// the partial sums. Both loads are affine (A's row and x, both stride 4
// bytes); x is the same for every block and comes from the L2.
#ifndef DD_BENCH_SPLIT_MATVEC_CUH
#define DD_BENCH_SPLIT_MATVEC_CUH

#include "common.cuh"

namespace split {

/// As written (no stores in the loop: the compiler may unroll and keep
/// several loads in flight).
__global__ void matvec_original(const float *A, const float *x, float *y, int n) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  float sum = 0.0f;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum = __fmaf_rn(A[(long long)row * n + j], x[j], sum);
  sum = block_sum(sum, partial, blockDim.x, [] { __syncthreads(); });
  if (threadIdx.x == 0)
    y[row] = sum;
}

/// The split: a stage holds U chunks of kBlock elements of A's row and of x.
template <unsigned Depth, unsigned U>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    matvec_split(const float *A, const float *x, float *y, int n) {
  using Ring = dd::StageRing<Depth>;
  struct Stage {
    dd::TileSlot<float, kBlock> a[U];
    dd::TileSlot<float, kBlock> x[U];
  };
  __shared__ typename Ring::Storage ring_storage;
  __shared__ Stage stages[Depth];
  __shared__ float partial[32];
  Ring ring(ring_storage);
  ring.init(kConsumerWarps);
  const int row = blockIdx.x;
  dd::StageCursor<Depth> c;
  if (threadIdx.x >= kBlock) {
    for (int j0 = 0; j0 < n; j0 += U * kBlock, c.advance()) {
      ring.acquire(c);
      Stage &st = stages[c.slot];
      for (int u = 0; u < int(U); ++u) {
        const int j = j0 + u * int(kBlock);
        if (j < n) {
          const unsigned count = min(kBlock, unsigned(n - j));
          dd::copy_tile_async(st.a[u], A + (long long)row * n + j, 0, count, ring.full(c));
          dd::copy_tile_async(st.x[u], x + j, 0, count, ring.full(c));
        }
      }
      ring.commit(c);
    }
  } else {
    const unsigned t = threadIdx.x;
    float sum = 0.0f;
    for (int j0 = 0; j0 < n; j0 += U * kBlock, c.advance()) {
      ring.wait(c);
      const Stage &st = stages[c.slot];
      float a[U], xv[U];
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (j0 + u * int(kBlock) + int(t) < n) {
          a[u] = st.a[u][t];
          xv[u] = st.x[u][t];
        }
      ring.release(c);
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (j0 + u * int(kBlock) + int(t) < n)
          sum = __fmaf_rn(a[u], xv[u], sum);
    }
    sum = block_sum(sum, partial, kBlock, [] { dd::consumer_sync(kBlock); });
    if (t == 0)
      y[row] = sum;
  }
}

/// The split with one tile per stream per stage: consecutive iterations of
/// the j loop read adjacent kBlock-element chunks of A's row (and of x), so
/// the U chunks of a stage are one contiguous range of U·kBlock elements,
/// one copy each (what the pass can do when an access's stride per
/// iteration equals the tile width). With XInRing false, x stays with the
/// consumers as plain loads: every block reads the same x, which the L1
/// already serves (the pass can see this: x's address has no blockIdx term).
template <unsigned Depth, unsigned U, bool XInRing>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    matvec_split_wide(const float *A, const float *x, float *y, int n) {
  using Ring = dd::StageRing<Depth>;
  using Tile = dd::TileSlot<float, U * kBlock>;
  struct StageAX {
    Tile a, x;
  };
  struct StageA {
    Tile a;
  };
  using Stage = std::conditional_t<XInRing, StageAX, StageA>;
  __shared__ typename Ring::Storage ring_storage;
  __shared__ Stage stages[Depth];
  __shared__ float partial[32];
  Ring ring(ring_storage);
  ring.init(kConsumerWarps);
  const int row = blockIdx.x;
  constexpr int step = int(U * kBlock);
  dd::StageCursor<Depth> c;
  if (threadIdx.x >= kBlock) {
    for (int j0 = 0; j0 < n; j0 += step, c.advance()) {
      ring.acquire(c);
      Stage &st = stages[c.slot];
      const unsigned count = min(unsigned(step), unsigned(n - j0));
      dd::copy_tile_async(st.a, A + (long long)row * n + j0, 0, count, ring.full(c));
      if constexpr (XInRing)
        dd::copy_tile_async(st.x, x + j0, 0, count, ring.full(c));
      ring.commit(c);
    }
  } else {
    const unsigned t = threadIdx.x;
    float sum = 0.0f;
    for (int j0 = 0; j0 < n; j0 += step, c.advance()) {
      ring.wait(c);
      const Stage &st = stages[c.slot];
      float a[U], xv[U];
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (j0 + u * int(kBlock) + int(t) < n) {
          a[u] = st.a[u * kBlock + t];
          if constexpr (XInRing)
            xv[u] = st.x[u * kBlock + t];
        }
      ring.release(c);
#pragma unroll
      for (int u = 0; u < int(U); ++u) {
        const int j = j0 + u * int(kBlock) + int(t);
        if (j < n) {
          if constexpr (!XInRing)
            xv[u] = x[j];
          sum = __fmaf_rn(a[u], xv[u], sum);
        }
      }
    }
    sum = block_sum(sum, partial, kBlock, [] { dd::consumer_sync(kBlock); });
    if (t == 0)
      y[row] = sum;
  }
}

struct MatvecData {
  int rows, n;
  std::vector<DeviceArray<float>> A, x, y;
  MatvecData(int rows_, int n_, int sets) : rows(rows_), n(n_) {
    for (int s = 0; s < sets; ++s) {
      A.emplace_back(std::size_t(rows) * n);
      x.emplace_back(n);
      y.emplace_back(rows);
    }
  }
};

template <unsigned D, unsigned U> Variant matvec_split_variant(MatvecData &d) {
  return {fmt("split D%u U%u", D, U), reinterpret_cast<const void *>(matvec_split<D, U>),
          kSplitThreads, [&d](int s) {
            matvec_split<D, U><<<d.rows, kSplitThreads>>>(d.A[s].ptr, d.x[s].ptr, d.y[s].ptr, d.n);
          }};
}

template <unsigned D, unsigned U, bool X>
Variant matvec_wide_variant(MatvecData &d, const char *name) {
  return {name, reinterpret_cast<const void *>(matvec_split_wide<D, U, X>), kSplitThreads,
          [&d](int s) {
            matvec_split_wide<D, U, X>
                <<<d.rows, kSplitThreads>>>(d.A[s].ptr, d.x[s].ptr, d.y[s].ptr, d.n);
          }};
}

inline std::vector<Variant> matvec_variants(MatvecData &d) {
  std::vector<Variant> v;
  v.push_back({"original", reinterpret_cast<const void *>(matvec_original), kBlock, [&d](int s) {
                 matvec_original<<<d.rows, kBlock>>>(d.A[s].ptr, d.x[s].ptr, d.y[s].ptr, d.n);
               }});
  v.push_back(matvec_split_variant<4, 2>(d));
  v.push_back(matvec_wide_variant<4, 2, true>(d, "split-wide D4 U2"));
  v.push_back(matvec_wide_variant<4, 4, false>(d, "split-wide A-only D4 U4"));
  v.push_back(matvec_wide_variant<8, 2, false>(d, "split-wide A-only D8 U2"));
  v.push_back(matvec_wide_variant<2, 8, false>(d, "split-wide A-only D2 U8"));
  return v;
}

inline void matvec_bench(Bench &b) {
  if (!b.wants("matvec"))
    return;
  const int sizes[][2] = {{1, 1}, {5, 1000}, {300, 4097}, {64, 255}, {1000, 8191}};
  int seed = 1;
  for (auto &sz : sizes) {
    if (b.quick && std::size_t(sz[0]) * sz[1] > (1u << 18))
      continue;
    MatvecData d(sz[0], sz[1], 1);
    fill_random(d.A[0].ptr, d.A[0].n, 500 + seed);
    fill_random(d.x[0].ptr, d.x[0].n, 600 + seed++);
    auto vs = matvec_variants(d);
    const std::string size = fmt("%dx%d", d.rows, d.n);
    b.check("matvec", size, vs, d.y[0]);
  }
  if (b.quick)
    return;
  // Long rows (32 KiB per block) and short rows (2 KiB: one or two stages
  // per block, so the ring never fills).
  const int shapes[][2] = {{8192, 8192}, {131072, 512}};
  for (auto &sh : shapes) {
    const int rows = sh[0], n = sh[1];
    const double bytes = (double(rows) * n + n + rows) * sizeof(float);
    MatvecData d(rows, n, b.sets_for(bytes));
    for (std::size_t s = 0; s < d.A.size(); ++s) {
      fill_random(d.A[s].ptr, d.A[s].n, 15);
      fill_random(d.x[s].ptr, d.x[s].n, 16);
    }
    auto vs = matvec_variants(d);
    b.time("matvec", fmt("%dx%d", rows, n), vs, int(d.A.size()), bytes);
  }
}

} // namespace split

#endif // DD_BENCH_SPLIT_MATVEC_CUH
