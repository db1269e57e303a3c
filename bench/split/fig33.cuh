// (a) The dissertation's Figure 3.3 kernel: B[i*num + tid] = A[i*num + tid] + 1
// over dim rows. Both accesses are affine (stride 4 bytes); the load's
// address is the affine stream's, so the producer copies row i of the
// block's columns, a contiguous 1 KiB tile, with one bulk copy.
#ifndef DD_BENCH_SPLIT_FIG33_CUH
#define DD_BENCH_SPLIT_FIG33_CUH

#include "common.cuh"

namespace split {

/// As in the figure (plus the bound check every real launch needs). A and B
/// may alias as far as the compiler knows, so it cannot load row i+1
/// before storing row i: one load in flight per thread.
__global__ void fig33_original(int A[], int B[], int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num)
    for (int i = 0; i < dim; i++) {
      int tmp = A[i * num + tid];
      B[i * num + tid] = tmp + 1;
    }
}

/// Reference, not a split: the same loop when the programmer promises that
/// A and B do not alias (__restrict__) and asks for unrolling, so the
/// compiler may keep four loads in flight.
__global__ void fig33_restrict(const int *__restrict__ A, int *__restrict__ B, int dim, int num) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < num) {
#pragma unroll 4
    for (int i = 0; i < dim; i++)
      B[i * num + tid] = A[i * num + tid] + 1;
  }
}

/// The split: the producer warp runs the loop control and copies row i of
/// A (the block's kBlock columns, fewer in the last block) into the ring;
/// the consumers add one and store. Each stage carries U rows.
template <unsigned Depth, unsigned U>
__global__ void __launch_bounds__(kSplitThreads, kSplitMinBlocks)
    fig33_split(const int *A, int *B, int dim, int num) {
  using Queue = dd::AffineQueue<int, kBlock, Depth, U>;
  __shared__ typename Queue::Storage storage;
  Queue q(storage);
  q.init(kConsumerWarps);
  const int block0 = blockIdx.x * kBlock;
  typename Queue::Cursor c;
  if (threadIdx.x >= kBlock) { // producer warp: the affine stream
    const unsigned count = min(kBlock, unsigned(num - block0)); // tid < num, as a range
    for (int i0 = 0; i0 < dim; i0 += U, c.advance()) {
      q.acquire(c);
      for (int u = 0; u < int(U) && i0 + u < dim; ++u)
        q.copy_tile_async(c, u, A + (i0 + u) * num + block0, 0, count);
      q.commit(c);
    }
  } else { // consumer warps: the rest
    const int tid = block0 + threadIdx.x;
    for (int i0 = 0; i0 < dim; i0 += U, c.advance()) {
      q.wait(c);
      int tmp[U];
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (i0 + u < dim && tid < num)
          tmp[u] = q.tile(c, u)[threadIdx.x];
      q.release(c); // the stage is in registers: hand it back before the stores
#pragma unroll
      for (int u = 0; u < int(U); ++u)
        if (i0 + u < dim && tid < num)
          B[(i0 + u) * num + tid] = tmp[u] + 1;
    }
  }
}

struct Fig33Data {
  int dim, num;
  std::vector<DeviceArray<int>> A, B;
  Fig33Data(int dim_, int num_, int sets) : dim(dim_), num(num_) {
    for (int s = 0; s < sets; ++s) {
      A.emplace_back(std::size_t(dim) * num);
      B.emplace_back(std::size_t(dim) * num);
    }
  }
};

template <unsigned D, unsigned U> Variant fig33_split_variant(Fig33Data &d) {
  return {fmt("split D%u U%u", D, U), reinterpret_cast<const void *>(fig33_split<D, U>),
          kSplitThreads, [&d](int s) {
            fig33_split<D, U><<<ceil_div(d.num, kBlock), kSplitThreads>>>(d.A[s].ptr, d.B[s].ptr,
                                                                          d.dim, d.num);
          }};
}

inline std::vector<Variant> fig33_variants(Fig33Data &d) {
  std::vector<Variant> v;
  v.push_back({"original", reinterpret_cast<const void *>(fig33_original), kBlock, [&d](int s) {
                 fig33_original<<<ceil_div(d.num, kBlock), kBlock>>>(d.A[s].ptr, d.B[s].ptr,
                                                                     d.dim, d.num);
               }});
  v.push_back({"original+restrict", reinterpret_cast<const void *>(fig33_restrict), kBlock,
               [&d](int s) {
                 fig33_restrict<<<ceil_div(d.num, kBlock), kBlock>>>(d.A[s].ptr, d.B[s].ptr,
                                                                     d.dim, d.num);
               }});
  v.push_back(fig33_split_variant<1, 1>(d)); // no overlap: the ring's round trip, and
  v.push_back(fig33_split_variant<2, 1>(d)); // slots reused every stage or two
  v.push_back(fig33_split_variant<4, 1>(d));
  v.push_back(fig33_split_variant<8, 1>(d));
  v.push_back(fig33_split_variant<4, 2>(d));
  v.push_back(fig33_split_variant<3, 4>(d));
  v.push_back(fig33_split_variant<16, 1>(d));
  return v;
}

inline void fig33_bench(Bench &b) {
  if (!b.wants("fig33"))
    return;
  // Correctness: sizes that are and are not multiples of the block, and row
  // lengths that leave the tiles unaligned (num % 4 != 0).
  const int sizes[][2] = {{1, 1}, {7, 1000}, {33, 12345}, {5, 256}, {64, (1 << 17) + 77}};
  int seed = 1;
  for (auto &sz : sizes) {
    if (b.quick && std::size_t(sz[0]) * sz[1] > (1u << 16))
      continue;
    Fig33Data d(sz[0], sz[1], 1);
    fill_random(d.A[0].ptr, d.A[0].n, 100 + seed++);
    auto vs = fig33_variants(d);
    const std::string size = fmt("dim=%d num=%d", d.dim, d.num);
    b.check("fig33", size, vs, d.B[0]);
  }
  if (b.quick)
    return;
  const int dim = 64, num = 1 << 19; // 128 MiB read, 128 MiB written
  const double bytes = 2.0 * dim * num * sizeof(int);
  Fig33Data d(dim, num, b.sets_for(bytes));
  for (auto &a : d.A)
    fill_random(a.ptr, a.n, 7);
  auto vs = fig33_variants(d);
  b.time("fig33", fmt("dim=%d num=%d", dim, num), vs, int(d.A.size()), bytes);
}

} // namespace split

#endif // DD_BENCH_SPLIT_FIG33_CUH
