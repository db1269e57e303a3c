// (b) 2-D 5-point stencil, out = c0·centre + c1·(north + south + west + east)
// on the interior of an nx × ny grid. Each thread owns a column x and walks
// `rows` rows (blockIdx.y picks the band). All five loads are affine (stride
// 4 bytes); the three of row y differ by constants, so the pass makes them
// one tile with a one-element halo on each side.
#ifndef DD_BENCH_SPLIT_STENCIL_CUH
#define DD_BENCH_SPLIT_STENCIL_CUH

#include "common.cuh"

namespace split {

/// The arithmetic, with rounding fixed operation by operation (no
/// contraction into FMA), shared by every version so results are identical.
__device__ __forceinline__ float stencil5(float c, float n, float s, float w, float e, float c0,
                                          float c1) {
  return __fadd_rn(__fmul_rn(c0, c), __fmul_rn(c1, __fadd_rn(__fadd_rn(n, s), __fadd_rn(w, e))));
}

struct StencilBand {
  int y_begin, y_end; // interior rows of this block: [y_begin, y_end)
  __device__ StencilBand(int ny, int rows)
      : y_begin(max(1, int(blockIdx.y) * rows)), y_end(min(ny - 1, (int(blockIdx.y) + 1) * rows)) {}
};

/// As written: in and out may alias, so each row's loads wait for the
/// previous row's store.
__global__ void stencil_original(const float *in, float *out, int nx, int ny, int rows, float c0,
                                 float c1) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const StencilBand band(ny, rows);
  if (x >= 1 && x < nx - 1)
    for (int y = band.y_begin; y < band.y_end; ++y)
      out[y * nx + x] = stencil5(in[y * nx + x], in[(y - 1) * nx + x], in[(y + 1) * nx + x],
                                 in[y * nx + x - 1], in[y * nx + x + 1], c0, c1);
}

/// Reference, not a split: __restrict__ and unrolling.
__global__ void stencil_restrict(const float *__restrict__ in, float *__restrict__ out, int nx,
                                 int ny, int rows, float c0, float c1) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const StencilBand band(ny, rows);
  if (x >= 1 && x < nx - 1) {
#pragma unroll 4
    for (int y = band.y_begin; y < band.y_end; ++y)
      out[y * nx + x] = stencil5(in[y * nx + x], in[(y - 1) * nx + x], in[(y + 1) * nx + x],
                                 in[y * nx + x - 1], in[y * nx + x + 1], c0, c1);
  }
}

/// The split as the pass would emit it: per loop iteration three tiles
/// (row y-1, row y with halo, row y+1), U iterations per stage.
template <unsigned Depth, unsigned U>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    stencil_split(const float *in, float *out, int nx, int ny, int rows, float c0, float c1) {
  using Ring = dd::StageRing<Depth>;
  struct Stage {
    dd::TileSlot<float, kBlock> up[U];
    dd::TileSlot<float, kBlock + 2> mid[U]; // element j is in[y*nx + x0 - 1 + j]
    dd::TileSlot<float, kBlock> down[U];
  };
  __shared__ typename Ring::Storage ring_storage;
  __shared__ Stage stages[Depth];
  Ring ring(ring_storage);
  ring.init(kConsumerWarps);
  const int x0 = blockIdx.x * kBlock;
  const StencilBand band(ny, rows);
  dd::StageCursor<Depth> c;
  if (threadIdx.x >= kBlock) {
    const unsigned w_end = min(kBlock, unsigned(nx - x0));
    const unsigned m_begin = x0 == 0 ? 1 : 0, m_end = min(kBlock + 2, unsigned(nx - x0 + 1));
    for (int y0 = band.y_begin; y0 < band.y_end; y0 += U, c.advance()) {
      ring.acquire(c);
      Stage &st = stages[c.slot];
      for (int u = 0; u < int(U) && y0 + u < band.y_end; ++u) {
        const int y = y0 + u;
        dd::copy_tile_async(st.up[u], in + (y - 1) * nx + x0, 0, w_end, ring.full(c));
        dd::copy_tile_async(st.mid[u], in + y * nx + x0 - 1, m_begin, m_end, ring.full(c));
        dd::copy_tile_async(st.down[u], in + (y + 1) * nx + x0, 0, w_end, ring.full(c));
      }
      ring.commit(c);
    }
  } else {
    const unsigned t = threadIdx.x;
    const int x = x0 + int(t);
    const bool interior = x >= 1 && x < nx - 1;
    for (int y0 = band.y_begin; y0 < band.y_end; y0 += U, c.advance()) {
      ring.wait(c);
      const Stage &st = stages[c.slot];
      float r[U];
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (y0 + u < band.y_end && interior)
          r[u] = stencil5(st.mid[u][t + 1], st.up[u][t], st.down[u][t], st.mid[u][t],
                          st.mid[u][t + 2], c0, c1);
      ring.release(c);
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (y0 + u < band.y_end && interior)
          out[(y0 + u) * nx + x] = r[u];
    }
  }
}

/// A split that also reuses rows across iterations: one halo row per stage,
/// rows y_begin-1 .. y_end in order; the consumers hold three stages (rows
/// y-1, y, y+1) and release the oldest after each row. A third of the
/// copies of stencil_split; the pass would need to see that row y+1 of
/// iteration y is row y of iteration y+1.
template <unsigned Depth>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    stencil_split_rows(const float *in, float *out, int nx, int ny, int rows, float c0, float c1) {
  static_assert(Depth >= 4, "three rows held plus one in flight");
  using Ring = dd::StageRing<Depth>;
  using Row = dd::TileSlot<float, kBlock + 2>; // element j is in[r*nx + x0 - 1 + j]
  __shared__ typename Ring::Storage ring_storage;
  __shared__ Row stage_rows[Depth];
  Ring ring(ring_storage);
  ring.init(kConsumerWarps);
  const int x0 = blockIdx.x * kBlock;
  const StencilBand band(ny, rows);
  if (band.y_begin >= band.y_end)
    return; // uniform over the block: nobody touches the ring
  if (threadIdx.x >= kBlock) {
    const unsigned m_begin = x0 == 0 ? 1 : 0, m_end = min(kBlock + 2, unsigned(nx - x0 + 1));
    dd::StageCursor<Depth> c;
    for (int r = band.y_begin - 1; r <= band.y_end; ++r, c.advance()) {
      ring.acquire(c);
      dd::copy_tile_async(stage_rows[c.slot], in + r * nx + x0 - 1, m_begin, m_end, ring.full(c));
      ring.commit(c);
    }
  } else {
    const unsigned t = threadIdx.x;
    const int x = x0 + int(t);
    const bool interior = x >= 1 && x < nx - 1;
    dd::StageCursor<Depth> north, centre = north.next(), south = centre.next();
    ring.wait(north);
    ring.wait(centre);
    for (int y = band.y_begin; y < band.y_end; ++y) {
      ring.wait(south);
      const Row &n = stage_rows[north.slot], &m = stage_rows[centre.slot],
                &s = stage_rows[south.slot];
      if (interior)
        out[y * nx + x] = stencil5(m[t + 1], n[t + 1], s[t + 1], m[t], m[t + 2], c0, c1);
      ring.release(north);
      north = centre;
      centre = south;
      south.advance();
    }
    ring.release(north);
    ring.release(centre);
  }
}

struct StencilData {
  int nx, ny, rows;
  std::vector<DeviceArray<float>> in, out;
  StencilData(int nx_, int ny_, int rows_, int sets) : nx(nx_), ny(ny_), rows(rows_) {
    for (int s = 0; s < sets; ++s) {
      in.emplace_back(std::size_t(nx) * ny);
      out.emplace_back(std::size_t(nx) * ny);
    }
  }
  dim3 grid() const { return dim3(ceil_div(nx, kBlock), ceil_div(ny, rows)); }
};

inline constexpr float kStencilC0 = 0.5f, kStencilC1 = 0.125f;

inline std::vector<Variant> stencil_variants(StencilData &d) {
  std::vector<Variant> v;
  auto add = [&](const std::string &name, auto kernel, unsigned threads) {
    v.push_back({name, reinterpret_cast<const void *>(kernel), threads, [&d, kernel, threads](int s) {
                   kernel<<<d.grid(), threads>>>(d.in[s].ptr, d.out[s].ptr, d.nx, d.ny, d.rows,
                                                 kStencilC0, kStencilC1);
                 }});
  };
  add("original", stencil_original, kBlock);
  add("original+restrict", stencil_restrict, kBlock);
  add("split D4 U1", stencil_split<4, 1>, kSplitThreads);
  add("split D4 U2", stencil_split<4, 2>, kSplitThreads);
  add("split-rows D8", stencil_split_rows<8>, kSplitThreads);
  add("split-rows D16", stencil_split_rows<16>, kSplitThreads);
  return v;
}

inline void stencil_bench(Bench &b) {
  if (!b.wants("stencil"))
    return;
  // nx, ny, rows per block: grids narrower than a block, widths that are
  // not multiples of the block or of 4 (unaligned rows), bands cut short.
  const int sizes[][3] = {{3, 3, 1}, {257, 100, 7}, {1000, 513, 64}, {4099, 300, 64}, {256, 66, 64}};
  int seed = 1;
  for (auto &sz : sizes) {
    if (b.quick && std::size_t(sz[0]) * sz[1] > (1u << 18))
      continue;
    StencilData d(sz[0], sz[1], sz[2], 1);
    fill_random(d.in[0].ptr, d.in[0].n, 200 + seed++);
    auto vs = stencil_variants(d);
    const std::string size = fmt("%dx%d rows=%d", d.nx, d.ny, d.rows);
    b.check("stencil", size, vs, d.out[0]);
  }
  if (b.quick)
    return;
  const int nx = 8192, ny = 8192, rows = 64; // 256 MiB in, 256 MiB out
  const double bytes = 2.0 * nx * ny * sizeof(float);
  StencilData d(nx, ny, rows, b.sets_for(bytes));
  for (auto &a : d.in)
    fill_random(a.ptr, a.n, 9);
  auto vs = stencil_variants(d);
  b.time("stencil", fmt("%dx%d rows=%d", nx, ny, rows), vs, int(d.in.size()), bytes);
}

} // namespace split

#endif // DD_BENCH_SPLIT_STENCIL_CUH
