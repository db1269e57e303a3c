// (d) Strided gather in a loop: out[i*num + tid] = in[(i*num + tid) * stride].
// The load's address is affine with a stride of 4·stride bytes, not
// contiguous: the producer gathers it element by element (cp.async), or, when
// the stride is small enough that the warp's span is dense in 32-byte
// sectors anyway, copies the whole span with one bulk copy.
#ifndef DD_BENCH_SPLIT_GATHER_CUH
#define DD_BENCH_SPLIT_GATHER_CUH

#include "common.cuh"

namespace split {

__global__ void gather_original(const float *in, float *out, int dim, int num, int stride) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * stride];
}

/// Reference, not a split: __restrict__ and unrolling.
__global__ void gather_restrict(const float *__restrict__ in, float *__restrict__ out, int dim,
                                int num, int stride) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num) {
#pragma unroll 4
    for (int i = 0; i < dim; ++i)
      out[i * num + tid] = in[(long long)(i * num + tid) * stride];
  }
}

/// The split with an element-wise gather (any stride).
template <unsigned Depth, unsigned U>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    gather_split(const float *in, float *out, int dim, int num, int stride) {
  using Queue = dd::AffineQueue<float, kBlock, Depth, U>;
  __shared__ typename Queue::Storage storage;
  Queue q(storage);
  q.init(kConsumerWarps);
  const int block0 = blockIdx.x * kBlock;
  typename Queue::Cursor c;
  if (threadIdx.x >= kBlock) {
    const unsigned count = min(kBlock, unsigned(num - block0));
    for (int i0 = 0; i0 < dim; i0 += U, c.advance()) {
      q.acquire(c);
      for (int u = 0; u < int(U) && i0 + u < dim; ++u)
        q.gather_tile_async(c, u, in + (long long)((i0 + u) * num + block0) * stride, stride, 0,
                            count);
      q.commit(c);
    }
  } else {
    const int tid = block0 + threadIdx.x;
    for (int i0 = 0; i0 < dim; i0 += U, c.advance()) {
      q.wait(c);
      float v[U];
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (i0 + u < dim && tid < num)
          v[u] = q.tile(c, u)[threadIdx.x];
      q.release(c);
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (i0 + u < dim && tid < num)
          out[(i0 + u) * num + tid] = v[u];
    }
  }
}

/// The split with the span copied whole (Stride known at compile time):
/// the tile is the kBlock·Stride elements from the block's first to its last
/// element; consumers read every Stride-th. Same DRAM sectors as the
/// gather when 4·Stride <= 32, Stride times the shared memory.
template <unsigned Depth, unsigned U, int Stride>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    gather_split_span(const float *in, float *out, int dim, int num, int stride) {
  using Queue = dd::AffineQueue<float, kBlock * Stride, Depth, U>;
  __shared__ typename Queue::Storage storage;
  Queue q(storage);
  q.init(kConsumerWarps);
  const int block0 = blockIdx.x * kBlock;
  typename Queue::Cursor c;
  if (stride != Stride)
    __trap(); // launched for the wrong stride
  if (threadIdx.x >= kBlock) {
    const unsigned count = min(kBlock, unsigned(num - block0));
    const unsigned span = (count - 1) * Stride + 1;
    for (int i0 = 0; i0 < dim; i0 += U, c.advance()) {
      q.acquire(c);
      for (int u = 0; u < int(U) && i0 + u < dim; ++u)
        q.copy_tile_async(c, u, in + (long long)((i0 + u) * num + block0) * Stride, 0, span);
      q.commit(c);
    }
  } else {
    const int tid = block0 + threadIdx.x;
    for (int i0 = 0; i0 < dim; i0 += U, c.advance()) {
      q.wait(c);
      float v[U];
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (i0 + u < dim && tid < num)
          v[u] = q.tile(c, u)[threadIdx.x * Stride];
      q.release(c);
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (i0 + u < dim && tid < num)
          out[(i0 + u) * num + tid] = v[u];
    }
  }
}

struct GatherData {
  int dim, num, stride;
  std::vector<DeviceArray<float>> in, out;
  GatherData(int dim_, int num_, int stride_, int sets) : dim(dim_), num(num_), stride(stride_) {
    for (int s = 0; s < sets; ++s) {
      in.emplace_back((std::size_t(dim) * num - 1) * stride + 1);
      out.emplace_back(std::size_t(dim) * num);
    }
  }
};

inline std::vector<Variant> gather_variants(GatherData &d) {
  std::vector<Variant> v;
  auto add = [&](const std::string &name, auto kernel, unsigned threads) {
    v.push_back({name, reinterpret_cast<const void *>(kernel), threads, [&d, kernel, threads](int s) {
                   kernel<<<ceil_div(d.num, kBlock), threads>>>(d.in[s].ptr, d.out[s].ptr, d.dim,
                                                                d.num, d.stride);
                 }});
  };
  add("original", gather_original, kBlock);
  add("original+restrict", gather_restrict, kBlock);
  add("split D4 U2", gather_split<4, 2>, kSplitThreads);
  add("split D8 U2", gather_split<8, 2>, kSplitThreads);
  if (d.stride == 2)
    add("split-span D4 U2", gather_split_span<4, 2, 2>, kSplitThreads);
  return v;
}

inline void gather_bench(Bench &b) {
  if (!b.wants("gather"))
    return;
  const int sizes[][3] = {{1, 1, 2}, {7, 1000, 2}, {33, 12345, 8}, {5, 300, 3}, {16, (1 << 17) + 5, 2}};
  int seed = 1;
  for (auto &sz : sizes) {
    if (b.quick && std::size_t(sz[0]) * sz[1] > (1u << 16))
      continue;
    GatherData d(sz[0], sz[1], sz[2], 1);
    fill_random(d.in[0].ptr, d.in[0].n, 400 + seed++);
    auto vs = gather_variants(d);
    const std::string size = fmt("dim=%d num=%d S=%d", d.dim, d.num, d.stride);
    b.check("gather", size, vs, d.out[0]);
  }
  if (b.quick)
    return;
  for (int stride : {2, 8}) {
    const int dim = 32, num = 1 << 19;
    // DRAM bytes: each element drags in its 32-byte sector unless
    // neighbours share it (4·stride < 32), plus the output.
    const double per_elem = std::min(32.0, 4.0 * stride);
    const double bytes = double(dim) * num * (per_elem + 4);
    GatherData d(dim, num, stride, b.sets_for(bytes));
    for (auto &a : d.in)
      fill_random(a.ptr, a.n, 13);
    auto vs = gather_variants(d);
    b.time("gather", fmt("dim=%d num=2^19 S=%d", dim, stride), vs, int(d.in.size()), bytes);
  }
}

} // namespace split

#endif // DD_BENCH_SPLIT_GATHER_CUH
